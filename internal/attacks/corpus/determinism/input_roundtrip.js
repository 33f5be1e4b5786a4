// expect: ok
// category: determinism
// value: {"big":12345678901234567890,"s":"\u2028","deep":[[[1]]]}
// input: {"big":12345678901234567890,"s":"\u2028","deep":[[[1]]]}
// source: original (the input parsed inside the sandbox)
return input;
