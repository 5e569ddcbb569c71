// How a catalog is reached: its options by name (given by `--catalog-option key=value` on the command line or saved
// with a catalog connection in the app), checked here once, and the catalog client they make. A secret is marked so
// that nothing shows or logs it.
import type { CatalogKind } from '../../shared/catalog-name.js';
import { DeltaportError, validationError } from '../../shared/errors.js';
import type { Catalog } from './catalog.js';
import { UnityCatalog } from './unity-catalog.js';

export type CatalogOptions = Record<string, string>;

export const CATALOG_OPTIONS: Record<string, { kinds: CatalogKind[]; secret?: true; about: string }> = {
  endpoint: {
    kinds: ['unity', 'glue'],
    about: 'Unity Catalog: the server or Databricks workspace URL (default: $DATABRICKS_HOST); Glue: another service URL (an emulator)',
  },
  token: {
    kinds: ['unity'],
    secret: true,
    about: 'a personal access token (default: $DATABRICKS_TOKEN, then $UC_TOKEN; none for an open server)',
  },
  region: { kinds: ['glue'], about: 'the AWS region of the Glue catalog (default: the AWS configuration)' },
  profile: { kinds: ['glue'], about: 'a profile of ~/.aws/config and ~/.aws/credentials (default: $AWS_PROFILE)' },
};

/** Names and values checked for a kind of catalog; every problem at once. */
export function catalogOptionProblems(kind: CatalogKind, options: CatalogOptions): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    const option = CATALOG_OPTIONS[name];
    if (!option) problems.push(`unknown catalog option '${name}' (known: ${Object.keys(CATALOG_OPTIONS).join(', ')})`);
    else if (!option.kinds.includes(kind)) problems.push(`catalog option ${name} does not apply to ${kindName(kind)}`);
    else if (name === 'endpoint' && !/^https?:\/\/[^/]+/.test(value))
      problems.push(`catalog option endpoint must be an http(s):// URL, not '${value}'`);
  }
  return problems;
}

/** The catalog client for the options; the environment fills in what they leave out, as the vendors' own tools do.
 * AWS's Glue client is loaded only for a Glue catalog (it takes tens of milliseconds to load). */
export async function openCatalog(kind: CatalogKind, options: CatalogOptions, env: NodeJS.ProcessEnv = process.env): Promise<Catalog> {
  const problems = catalogOptionProblems(kind, options);
  if (problems.length > 0) throw validationError(problems);
  switch (kind) {
    case 'unity': {
      const endpoint = options.endpoint ?? env.DATABRICKS_HOST;
      if (!endpoint)
        throw new DeltaportError(
          'VALIDATION',
          'Unity Catalog needs its URL: give --catalog-option endpoint=https://… (or set DATABRICKS_HOST)',
        );
      const token = options.token || env.DATABRICKS_TOKEN || env.UC_TOKEN || null;
      return new UnityCatalog({ endpoint: /^https?:\/\//.test(endpoint) ? endpoint : `https://${endpoint}`, token });
    }
    case 'glue':
      return new (await import('./glue-catalog.js')).GlueCatalog({
        region: options.region,
        profile: options.profile,
        endpoint: options.endpoint,
      });
  }
}

export function kindName(kind: CatalogKind): string {
  return kind === 'unity' ? 'Unity Catalog' : 'AWS Glue';
}
