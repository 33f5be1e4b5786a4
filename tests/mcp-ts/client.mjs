// The official TypeScript SDK's client against Warden: over stdio
// (`node client.mjs stdio WARDEN [ARGS...]`, which starts `WARDEN mcp`)
// or Streamable HTTP (`node client.mjs http URL TOKEN`). It lists the
// tools, runs a script with input, gets a typed error, is clamped by the
// caps, and cancels a runaway (over HTTP, first, it is refused without
// a token and with a wrong one), then prints what it saw as one JSON line
// for tests/mcp_ts_test.go to check.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [mode, target, ...rest] = process.argv.slice(2);
const transport = mode === "stdio"
  ? new StdioClientTransport({ command: target, args: ["mcp", ...rest], stderr: "inherit" })
  : new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers: { Authorization: `Bearer ${rest[0]}` } } });
const client = new Client({ name: "warden-ts-test", version: "0.0.0" });
const out = {};
// refusedWith connects over HTTP with these headers and reports how the
// server refused (or null if it did not).
async function refusedWith(headers) {
  const c = new Client({ name: "warden-ts-test", version: "0.0.0" });
  try {
    await c.connect(new StreamableHTTPClientTransport(new URL(target), { requestInit: { headers } }));
    await c.close().catch(() => {});
    return null;
  } catch (e) {
    return { code: e?.code ?? null, message: String(e?.message ?? e) };
  }
}
try {
  if (mode === "http") {
    out.refused = { none: await refusedWith({}), wrong: await refusedWith({ Authorization: "Bearer wrong-token" }) };
  }
  await client.connect(transport);
  const { tools } = await client.listTools();
  out.tools = tools.map((t) => ({ name: t.name, readOnly: t.annotations?.readOnlyHint, openWorld: t.annotations?.openWorldHint }));
  const call = (args, options) => client.callTool({ name: "run_javascript", arguments: args }, undefined, options);
  const ok = await call({ code: "return input.a + input.b", input: { a: 40, b: 2 } });
  out.ok = { isError: ok.isError ?? false, value: ok.structuredContent?.value, text: ok.content?.[0]?.text };
  const failed = await call({ code: "throw new RangeError('too far')" });
  out.failed = { isError: failed.isError, type: failed.structuredContent?.error?.type, name: failed.structuredContent?.error?.name };
  const clamped = await call({ code: "return 1", timeout_ms: 3600000 });
  out.clamped = clamped.structuredContent?.clamped ?? [];
  const start = Date.now();
  try {
    await call({ code: "for (;;) {}", timeout_ms: 20000 }, { signal: AbortSignal.timeout(500) });
    out.cancel = { error: null };
  } catch (e) {
    out.cancel = { error: String(e && e.name), ms: Date.now() - start };
  }
  const after = await call({ code: "return 'after'" });
  out.after = after.structuredContent?.value;
} catch (e) {
  out.fatal = String(e && e.stack || e);
}
await client.close().catch(() => {});
process.stdout.write(JSON.stringify(out) + "\n");
