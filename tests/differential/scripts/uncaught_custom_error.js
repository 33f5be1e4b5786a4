// A script that fails with its own error: the outcome is the error's name
// and message.
class QuotaError extends Error {
  constructor(used, limit) { super(`quota exceeded: ${used}/${limit}`); this.name = "QuotaError"; }
}
const usage = input.reduce((s, x) => s + x, 0);
if (usage > 100) throw new QuotaError(usage, 100);
return usage;
