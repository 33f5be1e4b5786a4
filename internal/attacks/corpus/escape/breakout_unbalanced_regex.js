// expect: UserCodeError
// category: escape
// source: Function constructor comment in QuickJS source ("Function(\"}), ({\")")
}), ({
