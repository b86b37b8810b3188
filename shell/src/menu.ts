import { MENU_GROUPS, type PermissionKey, ROUTES } from '@sertifikasi/shared-contracts';
import { can } from '@sertifikasi/shared-auth';

export interface MenuLink {
  label: string;
  to: string;
  permission: PermissionKey;
}
export interface MenuGroup {
  label: string;
  links: MenuLink[];
}

const links = ROUTES.flatMap((r) =>
  'menu' in r ? [{ label: r.menu.label, to: r.path, permission: r.permission, menu: r.menu }] : [],
);

/** Top-level links of the side menu (the statistics icon link), from the route registry. */
export const TOP_LINKS: MenuLink[] = links
  .filter((l) => !('group' in l.menu))
  .map(({ label, to, permission }) => ({ label, to, permission }));

/**
 * The side menu of docs/rules.md#screens (labels as corrected by docs/rules.md#records), from the route
 * registry: each group with its links in registry order.
 */
export const MENU: MenuGroup[] = MENU_GROUPS.map((g) => ({
  label: g.label,
  links: links
    .filter((l) => 'group' in l.menu && l.menu.group === g.key)
    .map(({ label, to, permission }) => ({ label, to, permission })),
}));

/** The groups and links a user may see: a link needs its key, a group any allowed link. */
export function visibleMenu(roles: readonly string[]): MenuGroup[] {
  return MENU.map((g) => ({ ...g, links: g.links.filter((l) => can(roles, l.permission)) })).filter(
    (g) => g.links.length > 0,
  );
}
