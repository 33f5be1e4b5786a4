// expect: ok
// value: null
// logs: []
// category: escape
// source: original (Annex B HTML comments: the whole line is a comment, nothing runs)
--> }; console.log("escaped"); async function z(input) {
