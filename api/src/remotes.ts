import { REMOTES } from '@sertifikasi/shared-contracts';

/** The micro-frontends, by top-level folder, and their federation names (the one list, in shared-contracts). */
export { REMOTES };

const envKey = (folder: string) => `REMOTE_${folder.replace(/-/g, '_').toUpperCase()}_URL`;

/** Remote base URLs from the environment, e.g. REMOTE_MF_MASTER_DATA_URL=https://cdn.example.com/mf-master-data/. */
export function remoteUrlsFromEnv(env: NodeJS.ProcessEnv): Partial<Record<string, string>> {
  const urls: Partial<Record<string, string>> = {};
  for (const r of REMOTES) {
    const value = env[envKey(r.folder)];
    if (value) urls[r.folder] = value.endsWith('/') ? value : `${value}/`;
  }
  return urls;
}
