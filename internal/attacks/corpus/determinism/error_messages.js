// expect: UserCodeError
// category: determinism
// source: original (an uncaught TypeError's envelope)
null.x;
