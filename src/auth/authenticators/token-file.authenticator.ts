import { readFileSync } from 'node:fs';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { AuthenticationResult, TokenAuthenticator } from './authenticator';

/** The fields of one CSV line (RFC 4180 quoting: "a,b" and "" for a quote inside quotes). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') field += line[++i];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

/** Reads --token-auth-file: `token,user,uid` and optionally `"group1,group2"`, one token a line. */
export function readTokenFile(path: string): Map<string, UserInfo> {
  const tokens = new Map<string, UserInfo>();
  readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const [token, username, uid, groups] = csvFields(line).map((f) => f.trim());
      if (!token || !username || uid === undefined) {
        throw new Error(`${path}, line ${index + 1}: a token line has at least token, user name and uid`);
      }
      const groupList = groups ? groups.split(',').map((g) => g.trim()).filter((g) => g !== '') : [];
      tokens.set(token, { username, ...(uid ? { uid } : {}), groups: groupList });
    });
  return tokens;
}

/** Static bearer tokens (--token-auth-file), read once at start as kube-apiserver does. */
export class TokenFileAuthenticator implements TokenAuthenticator {
  constructor(private readonly tokens: Map<string, UserInfo>) {}

  async authenticateToken(token: string): Promise<AuthenticationResult> {
    const user = this.tokens.get(token);
    return user ? { user } : undefined;
  }
}
