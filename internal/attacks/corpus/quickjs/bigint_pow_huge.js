// expect: UserCodeError
// category: quickjs
// QuickJS refuses a BigInt past its size limit with a RangeError.
// source: QuickJS BigInt exponent reports
return (2n ** (2n ** 40n)).toString().length;
