// The official MCP TypeScript SDK's client against `fibe mcp serve` over
// stdio: list every tool, then a read, a create, a failing call, a list, and
// a delete the user declines when asked (elicitation).
// Usage: node client.mjs FIBE_BINARY [GLOBAL_FLAGS...]
// Prints one JSON document of what it saw; exits 1 on anything the SDK
// refused (it validates each structuredContent against its output schema).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const [bin, ...flags] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: bin,
  args: [...flags, "mcp", "serve"],
  env: process.env,
  stderr: "inherit",
});
// The person behind this client declines every confirmation it is asked for.
const client = new Client({ name: "fibe-ts-test", version: "1.0.0" }, { capabilities: { elicitation: {} } });
const seen = { tools: [], calls: {}, asked: [] };
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  seen.asked.push(req.params.message);
  return { action: "decline" };
});

async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  seen.calls[name + (res.isError ? ":error" : "")] = {
    isError: Boolean(res.isError),
    structured: res.structuredContent,
    text: res.content.filter((c) => c.type === "text").map((c) => c.text).join(""),
  };
  return res;
}

try {
  await client.connect(transport);
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const t of page.tools) {
      seen.tools.push({ name: t.name, outputType: t.outputSchema?.type ?? null, inputType: t.inputSchema?.type ?? null });
    }
    cursor = page.nextCursor;
  } while (cursor);
  await call("fibe_whoami", {});
  await call("fibe_playgrounds_create", { name: "ts-client", playspec: "web", marquee: "local" });
  await call("fibe_playgrounds_get", { playground: "no-such-playground" });
  await call("fibe_playgrounds_list", {});
  await call("fibe_playgrounds_delete", { playground: "ts-client" });
  await client.close();
  process.stdout.write(JSON.stringify(seen) + "\n");
} catch (err) {
  process.stderr.write(`ts client: ${err && err.stack ? err.stack : err}\n`);
  process.stdout.write(JSON.stringify(seen) + "\n");
  process.exit(1);
}
