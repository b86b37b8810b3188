import { useState } from 'react';
import { NavLink } from 'react-router-dom';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import BarChartIcon from '@mui/icons-material/BarChart';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { can, useAuth } from '@sertifikasi/shared-auth';
import { TOP_LINKS, visibleMenu } from '../menu';
import { t } from '../i18n/id';

/** The link of the current page (NavLink marks it with class `active` and aria-current="page"). */
const linkSx = {
  '&.active': {
    bgcolor: 'action.selected',
    color: 'primary.main',
    '& .MuiListItemIcon-root': { color: 'primary.main' },
    '& .MuiListItemText-primary': { fontWeight: 600 },
  },
} as const;

/** Statistics link plus the three groups, each toggling open or closed; links by permission. */
export function SideMenu() {
  const roles = useAuth((s) => s.roles);
  // Until user-info answers, the keys are the signed-out defaults: show no links rather than a few.
  const loaded = useAuth((s) => s.company_ids !== null);
  const closeMobileMenu = useAuth((s) => s.closeMobileMenu);
  const groups = visibleMenu(roles);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  if (!loaded) return <List component="nav" aria-label={t.menu.navigation} aria-busy />;
  return (
    <List component="nav" aria-label={t.menu.navigation}>
      {TOP_LINKS.filter((link) => can(roles, link.permission)).map((link) => (
        <ListItemButton key={link.to} component={NavLink} to={link.to} sx={linkSx} onClick={closeMobileMenu}>
          <ListItemIcon>
            <BarChartIcon />
          </ListItemIcon>
          <ListItemText primary={link.label} />
        </ListItemButton>
      ))}
      {groups.map((group) => {
        const isOpen = open[group.label] ?? true;
        return (
          <div key={group.label}>
            <ListItemButton
              aria-expanded={isOpen}
              onClick={() => setOpen((o) => ({ ...o, [group.label]: !isOpen }))}
            >
              <ListItemText primary={group.label} />
              {isOpen ? <ExpandLess /> : <ExpandMore />}
            </ListItemButton>
            <Collapse in={isOpen} unmountOnExit>
              <List disablePadding>
                {group.links.map((link) => (
                  <ListItemButton
                    key={link.to}
                    component={NavLink}
                    to={link.to}
                    sx={{ ...linkSx, pl: 4 }}
                    onClick={closeMobileMenu}
                  >
                    <ListItemText primary={link.label} />
                  </ListItemButton>
                ))}
              </List>
            </Collapse>
          </div>
        );
      })}
    </List>
  );
}
