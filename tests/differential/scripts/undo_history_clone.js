// An undo stack of document snapshots taken with structuredClone: edits
// to the live document never change history.
const doc = { title: "Draft", blocks: [{ type: "p", text: "hello" }], meta: { updated: new Date(Date.UTC(2024, 0, 1)) } };
const history = [];
const edit = (fn) => { history.push(structuredClone(doc)); fn(doc); };
edit((d) => { d.title = "Draft 2"; });
edit((d) => { d.blocks.push({ type: "h1", text: "Title" }); });
edit((d) => { d.blocks[0].text = "HELLO"; d.meta.updated.setUTCDate(5); });
const undo = () => Object.assign(doc, history.pop());
const states = [JSON.stringify(doc)];
undo(); states.push(JSON.stringify(doc));
undo(); states.push(JSON.stringify(doc));
return { states, left: history.length, firstSnapshotDate: history[0].meta.updated.toISOString() };
