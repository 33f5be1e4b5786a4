// expect: UserCodeError
// category: determinism
// source: original (a syntax error's envelope: the line and a caret, at the user's own line and column)
const a = 1;
	const s = "é€😀"; const x = ;
