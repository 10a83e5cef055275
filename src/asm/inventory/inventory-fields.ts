/** `GET /inventory/v1/fields` (contract §2B.8): the inventory catalogue as `{path, type, description, repeated}`. */
import type { FieldDef } from '../../model/field-def.ts';
import { fail, ok, type Result } from '../../lib/problem.ts';
import { inventoryCatalogue, isRepeated } from './inventory-catalogue.ts';

export interface InventoryField {
  readonly path: string;
  readonly type: string;
  readonly description: string;
  readonly repeated: boolean;
}

const FAMILY_NAMES: Readonly<Record<string, string>> = {
  host: 'Host',
  cert: 'Certificate',
  domain: 'Domain',
  web_entity: 'Web entity',
  storage_bucket: 'Storage bucket',
};

const OWN: Readonly<Record<string, string>> = {
  type: 'Asset type of the hit: HOST, CERT, DOMAIN (domains and subdomains), WEB_ENTITY or STORAGE_BUCKET',
  asset_id: 'Asset id: IP, SHA-256, domain name, name:port or bucket URL',
  source: 'How the asset entered the workspace: Seed, CENSYS_SCAN or CLOUD_CONNECTOR',
  is_seed: 'Whether the asset is itself a seed',
  associated_at: 'When discovery first associated the asset with the workspace',
  cloud: 'Cloud provider of a host',
  tags: 'Tag labels on the asset',
  risks: 'Type ids of the asset’s open risks',
  'risks.type': 'Type id of an open risk',
  'risks.name': 'Name of an open risk’s type',
  'risks.severity': 'Severity of an open risk (user override first)',
  'risks.categories': 'Categories of an open risk',
  domain: 'The domain or subdomain name (same as domain.name)',
};

function describe(f: FieldDef): string {
  const own = OWN[f.path];
  if (own) return own;
  const dot = f.path.indexOf('.');
  const family = dot > 0 ? FAMILY_NAMES[f.path.slice(0, dot)] : undefined;
  if (!family) return `${f.path} (${f.type})`;
  const rest = f.path.slice(dot + 1);
  const where = f.path.startsWith('host.') || f.path.startsWith('cert.') ? ' (the Search API field ' + rest + ')' : '';
  return `${family} ${rest.replace(/[._]/g, ' ')}, ${f.type}${where}`;
}

function present(f: FieldDef): InventoryField {
  return { path: f.path, type: f.type, description: describe(f), repeated: isRepeated(f) };
}

/**
 * Every field, or only those named: a name is a field path or an object prefix (`host.location`
 * gives every field under it). An unknown name is an error rather than silently nothing.
 */
export function inventoryFields(requested: readonly string[] | undefined): Result<InventoryField[]> {
  const cat = inventoryCatalogue();
  const names = (requested ?? []).flatMap((f) => f.split(',')).map((f) => f.trim()).filter((f) => f !== '');
  if (names.length === 0) return ok(cat.all().map(present));
  const out: InventoryField[] = [];
  const seen = new Set<string>();
  const add = (f: FieldDef) => {
    if (seen.has(f.path)) return;
    seen.add(f.path);
    out.push(present(f));
  };
  for (const name of names) {
    const exact = cat.get(name);
    if (exact) {
      add(exact);
      continue;
    }
    if (cat.isPrefix(name)) {
      const lower = name.toLowerCase() + '.';
      for (const f of cat.all()) if (f.path.toLowerCase().startsWith(lower)) add(f);
      continue;
    }
    const s = cat.suggest(name);
    return fail('invalid_field', `Unknown field '${name}'.${s ? ` Did you mean '${s}'?` : ''}`, { details: [{ field: name, ...(s ? { suggestion: s } : {}) }] });
  }
  return ok(out);
}
