// Sort names with localeCompare, the way most generated code sorts text.
const names = ["bob", "Alice", "émile", "Zed", "alice", "Élodie", "charlie", "Bob"];
return {
  plain: [...names].sort((a, b) => a.localeCompare(b)),
  base: [...names].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: "base" })),
  equalIgnoringCase: "alice".localeCompare("ALICE", "en", { sensitivity: "accent" }),
};
