import type { KyInstance } from 'ky';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import {
  ALL,
  DEFAULT_ROLE_KEYS,
  ERROR_CODES,
  loginMessage,
  type CompanyOption,
  type CompanyScope,
  type LoginResponse,
  type PermissionKey,
  type SessionUser,
  type User,
  type UserInfo,
} from '@sertifikasi/shared-contracts/portal';
import { createApiClient, notifyApiError, readApiError } from './api';
import { readStored, STORAGE_KEYS, writeStored } from './storage';

/** The auth state of the portal with its transitions (docs/rules.md#entities). */
export interface AuthState {
  token: string | null;
  user: SessionUser | null;
  /** Permission keys (docs/rules.md#entities); DEFAULT_ROLE_KEYS until user-info answers. */
  roles: PermissionKey[];
  /** The caller's company scope. */
  company_ids: CompanyScope | null;
  /** The companies the caller may pick in the header. */
  companies: CompanyOption[];
  /** The selected company id, or 'ALL'. */
  company_id: string | null;
  profile: User | null;
  status: 'idle' | 'loading' | 'success' | 'failed';
  mobileMenuOpen: boolean;
  /** Signs in; throws a LoginFailure carrying the Indonesian message to show. */
  login: (username: string, password: string) => Promise<void>;
  /** Revokes the token on the server (a failure there is ignored), then forgets the session. */
  logout: () => Promise<void>;
  /** Loads permission keys, scope and pickable companies, and settles the selected company. */
  loadUserInfo: () => Promise<void>;
  loadProfile: () => Promise<void>;
  /** Selects 'ALL' or a company id; kept across reloads. */
  setCompany: (id: string) => void;
  toggleMobileMenu: () => void;
  closeMobileMenu: () => void;
}

/** A refused sign-in: `code` is the API's code, `message` the text for the login page. */
export class LoginFailure extends Error {
  code: string;

  constructor(code: string, message: string = loginMessage(code)) {
    super(message);
    this.name = 'LoginFailure';
    this.code = code;
  }
}

/** Whether 'ALL' is offered in the company selector: scope ALL, or more than one company. */
export function canSelectAll(state: Pick<AuthState, 'company_ids' | 'companies'>): boolean {
  return state.company_ids === ALL || state.companies.length > 1;
}

/**
 * The saved selection when it is still pickable; otherwise 'Semua Perusahaan' (ALL) for a user whose
 * scope is ALL, and the first company for a user limited to a list (ALL when the list is empty but
 * ALL is allowed).
 */
function settleCompany(saved: string | null, scope: CompanyScope, companies: CompanyOption[]): string | null {
  const allAllowed = canSelectAll({ company_ids: scope, companies });
  if (saved === ALL && allAllowed) return ALL;
  if (saved !== null && saved !== ALL && companies.some((c) => c.id === saved)) return saved;
  if (scope === ALL) return ALL;
  return companies[0]?.id ?? (allAllowed ? ALL : null);
}

/** What a signed-out page holds of the user (a fresh array each time). */
const signedOut = (): Pick<AuthState, 'token' | 'user' | 'roles' | 'profile'> => ({
  token: null,
  user: null,
  roles: [...DEFAULT_ROLE_KEYS],
  profile: null,
});

/** The one auth store. Created once here; shared as a Module Federation singleton. */
export const authStore: StoreApi<AuthState> = createStore<AuthState>()((set, get) => ({
  token: readStored(STORAGE_KEYS.token),
  user: null,
  roles: [...DEFAULT_ROLE_KEYS],
  company_ids: null,
  companies: [],
  company_id: readStored(STORAGE_KEYS.companyId),
  profile: null,
  status: 'idle',
  mobileMenuOpen: false,

  async login(username, password) {
    set({ status: 'loading' });
    try {
      const { token, user } = await api.post('login', { json: { username, password } }).json<LoginResponse>();
      writeStored(STORAGE_KEYS.token, token);
      // Whatever the previous user could do or see is gone until user-info answers for this one.
      set({ ...signedOut(), token, user, company_ids: null, companies: [], status: 'success' });
    } catch (err) {
      writeStored(STORAGE_KEYS.token, null);
      set({ token: null, user: null, status: 'failed' });
      const code = (await readApiError(err))?.code ?? ERROR_CODES.loginFailed;
      throw new LoginFailure(code);
    }
  },

  async logout() {
    if (get().token) {
      try {
        await api.post('logout');
      } catch {
        // The session ends here whatever the server says (it may be gone already).
      }
    }
    writeStored(STORAGE_KEYS.token, null);
    writeStored(STORAGE_KEYS.companyId, null);
    set({ ...signedOut(), company_ids: null, companies: [], company_id: null, status: 'idle' });
  },

  async loadUserInfo() {
    const { token } = get();
    const info = await api.get('user-info').json<UserInfo>();
    // Signed out (or in as someone else) while the call ran: the answer is about a session that ended.
    if (get().token !== token) return;
    const company_id = settleCompany(get().company_id, info.company_ids, info.companies);
    writeStored(STORAGE_KEYS.companyId, company_id);
    set({
      user: info.user,
      roles: info.roles,
      company_ids: info.company_ids,
      companies: info.companies,
      company_id,
    });
  },

  async loadProfile() {
    const { token } = get();
    const profile = await api.get('profile').json<User>();
    if (get().token === token) set({ profile });
  },

  setCompany(id) {
    writeStored(STORAGE_KEYS.companyId, id);
    set({ company_id: id });
  },

  toggleMobileMenu() {
    set((s) => ({ mobileMenuOpen: !s.mobileMenuOpen }));
  },

  closeMobileMenu() {
    set({ mobileMenuOpen: false });
  },
}));

/**
 * The API refused the token (401 on a call other than login): forget the session here, so that the
 * shell's guard sends the user to /login. The company choice stays for the next sign-in.
 * Internal (not exported from the package): the API client calls it.
 */
export function expireSession(): void {
  writeStored(STORAGE_KEYS.token, null);
  authStore.setState({ ...signedOut(), status: 'idle' });
}

/**
 * The one API client, sending the one store's token and ending its session on a refused token. It
 * is made here, beside the store, so that no import of the package can get a client that is not
 * wired to the store (the store's actions above use it only when called, after this line has run).
 */
export const api: KyInstance = createApiClient({
  token: () => authStore.getState().token,
  expire: expireSession,
});

/**
 * Asks for user-info again, for the signed-in user's companies, roles and scope after a screen changed
 * them (a company added, renamed or deleted; a role or an access edited). A failure toasts like any
 * other call; what the store held stays.
 */
export function refreshUserInfo(): void {
  if (!authStore.getState().token) return;
  authStore.getState().loadUserInfo().catch(notifyApiError);
}

/** Reads the auth store in a component: `useAuth((s) => s.company_id)`. */
export function useAuth<T>(selector: (s: AuthState) => T): T {
  return useStore(authStore, selector);
}
