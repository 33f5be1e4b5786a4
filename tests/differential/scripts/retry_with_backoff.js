// Retry a flaky operation with exponential backoff (short setTimeout
// sleeps), giving up after a number of attempts.
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function retry(fn, { attempts = 4, base = 5 } = {}) {
  const log = [];
  for (let i = 1; i <= attempts; i++) {
    try {
      const v = await fn(i);
      log.push(`attempt ${i}: ok`);
      return { value: v, log };
    } catch (e) {
      log.push(`attempt ${i}: ${e.message}`);
      if (i === attempts) { const err = new Error(`failed after ${attempts} attempts`); err.log = log; throw err; }
      await sleep(base * 2 ** (i - 1));
    }
  }
}
const flaky = (okAt) => async (i) => { if (i < okAt) throw new Error(`transient ${i}`); return (await host.request("answer")).value; };
const first = await retry(flaky(3));
let second;
try { await retry(flaky(9), { attempts: 3 }); } catch (e) { second = { message: e.message, log: e.log }; }
return { first, second };
