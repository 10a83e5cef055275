import type { Config } from '../main/config.ts';
import { openRuntime } from '../main/runtime.ts';
import { createAccount } from '../users/accounts.ts';
import { hashAsmKey, hashSecret, newSecret } from '../users/credentials.ts';
import { EXIT } from './exit-codes.ts';
import { UsageError } from './import-command.ts';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function usersCreate(config: Config, opts: { email: string; role: string; quota?: number; workspace?: string; json?: boolean }): Promise<number> {
  if (!EMAIL.test(opts.email)) throw new UsageError(`'${opts.email}' is not an email address`);
  if (opts.role !== 'admin' && opts.role !== 'user') throw new UsageError(`--role must be admin or user`);
  const rt = await openRuntime(config);
  try {
    if (await rt.store.users.byEmail(opts.email)) throw new UsageError(`a user ${opts.email} already exists`);
    if (opts.workspace && !(await rt.store.users.getWorkspace(opts.workspace))) throw new UsageError(`no workspace ${opts.workspace}`);
    const issued = await createAccount(rt.store, {
      email: opts.email,
      role: opts.role,
      ...(opts.quota !== undefined ? { quota: opts.quota } : {}),
      ...(opts.workspace ? { workspaceId: opts.workspace } : {}),
    });
    const out = { id: issued.user.id, email: issued.user.email, workspace: issued.user.workspaceId, api_id: issued.apiId, api_secret: issued.apiSecret, asm_api_key: issued.asmKey };
    process.stdout.write(
      opts.json
        ? JSON.stringify(out) + '\n'
        : `created ${out.email} (workspace ${out.workspace})\n  API id:     ${out.api_id}\n  API secret: ${out.api_secret}\n  ASM key:    ${out.asm_api_key}\nThe secret and key are shown only now.\n`,
    );
    return EXIT.ok;
  } finally {
    await rt.close();
  }
}

export async function usersList(config: Config, opts: { json?: boolean }): Promise<number> {
  const rt = await openRuntime(config);
  try {
    const users = await rt.store.users.list();
    if (opts.json) process.stdout.write(JSON.stringify(users.map((u) => ({ id: u.id, email: u.email, role: u.role, workspace: u.workspaceId, api_id: u.apiId, quota: u.quotaAllowance }))) + '\n');
    else for (const u of users) process.stdout.write(`${u.id}\t${u.email}\t${u.role}\tworkspace ${u.workspaceId}\tapi id ${u.apiId}\tquota ${u.quotaAllowance}\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
  }
}

async function findUser(config: Config, who: string) {
  const rt = await openRuntime(config);
  const user = (await rt.store.users.byEmail(who)) ?? (await rt.store.users.get(who)) ?? (await rt.store.users.byApiId(who));
  if (!user) {
    await rt.close();
    throw new UsageError(`no user '${who}' (give an email, user id or API id)`);
  }
  return { rt, user };
}

export async function usersDelete(config: Config, who: string): Promise<number> {
  const { rt, user } = await findUser(config, who);
  try {
    await rt.store.users.remove(user.id);
    process.stdout.write(`deleted ${user.email}\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
  }
}

export async function usersRotate(config: Config, who: string, opts: { json?: boolean }): Promise<number> {
  const { rt, user } = await findUser(config, who);
  try {
    const apiSecret = newSecret();
    const asmKey = newSecret();
    await rt.store.users.updateCredentials(user.id, { apiSecretHash: hashSecret(apiSecret), asmKeyHash: hashAsmKey(asmKey) });
    const out = { email: user.email, api_id: user.apiId, api_secret: apiSecret, asm_api_key: asmKey };
    process.stdout.write(opts.json ? JSON.stringify(out) + '\n' : `new credentials for ${user.email}\n  API id:     ${user.apiId}\n  API secret: ${apiSecret}\n  ASM key:    ${asmKey}\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
  }
}
