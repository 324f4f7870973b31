/**
 * A copy of the composed Pi fixture with planted secrets of every kind the
 * scan knows, in user prose, a tool call's arguments, a tool output and
 * metadata. Composed in memory; the fixture itself is never modified.
 */
import { readFixture } from "./fixtures.ts";

export const PLANTED = {
  "openai-key": "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  "anthropic-key": "sk-ant-api03-ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210",
  "aws-access-key": "AKIAIOSFODNN7EXAMPLE",
  "aws-secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  "github-token": "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
  "slack-token": "xoxb-123456789012-abcdefghijklmn",
  "google-api-key": "AIzaSyD-1234567890abcdefghijklmnopqrstu",
  "stripe-key": "sk_live_51HxYzAbCdEfGhIjKlMnOp",
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
  "private-key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7planted0key0material\n-----END RSA PRIVATE KEY-----",
  "bearer-token": "tok_live_abcdefghijklmnop123456",
  password: "hunter2-correct-horse",
  email: "dana.reviewer@example.org",
} as const;

export function sessionWithSecrets(): string {
  const lines = new TextDecoder().decode(readFixture("composed/pi-v3-tree.jsonl")).trimEnd().split("\n");
  const edit = (id: string, change: (record: Record<string, any>) => void) => {
    const index = lines.findIndex((l) => l.includes(`"id":"${id}"`));
    const record = JSON.parse(lines[index]!);
    change(record);
    lines[index] = JSON.stringify(record);
  };
  edit("a0000003", (r) => {
    r.message.content[0].text += `\nMy key is ${PLANTED["openai-key"]} and the old one ${PLANTED["anthropic-key"]}; mail ${PLANTED.email}.\npassword: ${PLANTED.password}`;
  });
  edit("a0000004", (r) => {
    r.message.content[2].arguments.env = { AWS: PLANTED["aws-access-key"], aws_secret_access_key: `aws_secret_access_key=${PLANTED["aws-secret"]}` };
  });
  edit("a0000005", (r) => {
    r.message.content[0].text += `\nGITHUB_TOKEN=${PLANTED["github-token"]}\nSLACK=${PLANTED["slack-token"]}\nGOOGLE=${PLANTED["google-api-key"]}\n${PLANTED["private-key"]}`;
  });
  edit("c0000004", (r) => {
    r.message.content[0].text += `\nAuthorization: Bearer ${PLANTED["bearer-token"]}\nstripe ${PLANTED["stripe-key"]}\nsession ${PLANTED.jwt}`;
    r.message.details = { request: { header: `Bearer ${PLANTED["bearer-token"]}` }, contact: PLANTED.email };
  });
  return lines.join("\n") + "\n";
}
