import type { ComponentType } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { RemoteName } from './routes';

/**
 * What a remote's `./routes` exposes: one screen component per route path it owns (typed in the remote
 * as `Record<PathsOf<'mf_x'>, ComponentType>` from the route registry).
 */
export interface RemoteRoutes {
  screens: Partial<Record<string, ComponentType>>;
}

interface RemoteEntry {
  name: RemoteName;
  entry: string;
}

let entries: RemoteEntry[] = [];
/** Settles once /modules/remotes.json has been read (or could not be). */
let registered: Promise<void> = Promise.resolve();

/**
 * Reads /modules/remotes.json (filled from the environment when the server starts) and registers
 * every remote it names. Pointing an entry at another build deploys that module alone, without a
 * shell rebuild (docs/rules.md#running-system). The portal draws its first screen without waiting
 * for it (the login page needs no module); a module's screen waits for it in loadRemoteRoutes.
 */
export function registerRemotesFromServer(fetchImpl: typeof fetch = fetch): Promise<void> {
  registered = readRemotes(fetchImpl);
  return registered;
}

async function readRemotes(fetchImpl: typeof fetch): Promise<void> {
  try {
    const res = await fetchImpl('/modules/remotes.json');
    if (!res.ok) return;
    const config = (await res.json()) as { remotes?: RemoteEntry[] };
    entries = config.remotes ?? [];
    registerRemotes(entries.map((r) => ({ name: r.name, entry: r.entry })));
  } catch {
    // No remotes known: their screens show the module-unavailable state.
  }
}

const cache = new Map<RemoteName, Promise<RemoteRoutes>>();

/** Loads a remote's routes once; a failure is forgotten so that "Coba Lagi" tries again. */
export function loadRemoteRoutes(name: RemoteName): Promise<RemoteRoutes> {
  let pending = cache.get(name);
  if (!pending) {
    let entry: RemoteEntry | undefined;
    pending = (async () => {
      await registered;
      entry = entries.find((r) => r.name === name);
      if (!entry) throw new Error(`remote ${name} is not configured`);
      const mod = await loadRemote<RemoteRoutes>(`${name}/routes`);
      if (!mod?.screens) throw new Error(`remote ${name} exposes no screens`);
      return mod;
    })();
    pending.catch(() => {
      cache.delete(name);
      if (entry) registerRemotes([{ name: entry.name, entry: entry.entry }], { force: true });
    });
    cache.set(name, pending);
  }
  return pending;
}
