// expect: ResourceError/memory | UserCodeError
// category: quickjs
// source: QuickJS BigInt exponent reports
return (2n ** (2n ** 40n)).toString().length;
