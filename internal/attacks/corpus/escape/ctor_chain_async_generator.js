// expect: ok
// category: escape
// value: "undefined"
// source: original (AsyncGeneratorFunction variant of the above)
const AG = async function* () {}.constructor;
return (await AG("yield typeof require")().next()).value;
