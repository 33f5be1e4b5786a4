// expect: ok
// category: isolation
// value: {"fresh":true}
// input: {"fresh":true}
// source: original (mutating the input cannot reach the next run's input)
input.fresh = false;
input.extra = 1;
return { fresh: true };
//== next
return input;
