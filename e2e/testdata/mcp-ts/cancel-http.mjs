// The official MCP TypeScript SDK's client against `fibe mcp serve --http`:
// it starts a wait that cannot end soon, cancels it after its first
// progress notification (the SDK sends notifications/cancelled and keeps
// the call's event stream open), then waits for a line on stdin (the Go
// test sends one once the server's polls have stopped) and makes one more
// call. A response to the cancelled call would reach the SDK as a response
// to an unknown request, an error its onerror hook records.
// Usage: node cancel-http.mjs URL TOKEN PLAYGROUND
// Prints one JSON document of what it saw; exits 1 on an unexpected failure.
import { createInterface } from "node:readline";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token, playground] = process.argv.slice(2);
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "fibe-ts-cancel", version: "1.0.0" });
const seen = { errors: [], progress: 0, cancelled: "", next: null };
client.onerror = (err) => seen.errors.push(String(err && err.message ? err.message : err));
const lines = createInterface({ input: process.stdin });
const goOn = new Promise((resolve) => lines.once("line", resolve));

try {
  await client.connect(transport);
  const ac = new AbortController();
  let progressed;
  const firstProgress = new Promise((resolve) => (progressed = resolve));
  const call = client.callTool({ name: "fibe_playgrounds_wait", arguments: { playground, call_budget: 0 } }, undefined, {
    signal: ac.signal,
    timeout: 60000,
    onprogress: () => {
      seen.progress++;
      progressed();
    },
  });
  await firstProgress;
  process.stderr.write("cancelling\n");
  ac.abort("the user changed their mind");
  try {
    await call;
  } catch (err) {
    seen.cancelled = String(err && err.message ? err.message : err);
  }
  await goOn;
  const res = await client.callTool({ name: "fibe_playgrounds_get", arguments: { playground } });
  seen.next = { isError: Boolean(res.isError), name: res.structuredContent?.name ?? null };
  await client.close();
  lines.close();
  process.stdout.write(JSON.stringify(seen) + "\n");
} catch (err) {
  process.stderr.write(`ts client: ${err && err.stack ? err.stack : err}\n`);
  process.stdout.write(JSON.stringify(seen) + "\n");
  process.exit(1);
}
