// "Did you mean?": Levenshtein distance against a list of known commands.
function lev(a, b) {
  const dp = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) dp[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      dp[i][j] = Math.min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return dp[a.length][b.length];
}
const commands = ["install", "uninstall", "update", "upgrade", "list", "search", "status", "init"];
return input.map((typo) => {
  const ranked = commands.map((c) => [c, lev(typo, c)]).sort((x, y) => x[1] - y[1] || (x[0] < y[0] ? -1 : 1));
  return { typo, best: ranked[0][1] <= 2 ? ranked[0][0] : null, top3: ranked.slice(0, 3) };
});
