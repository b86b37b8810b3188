import { useId, useState } from 'react';
import { NavLink } from 'react-router-dom';
import Collapse from '@mui/material/Collapse';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
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

/**
 * Statistics link plus the three groups, each toggling open or closed; links by permission. A
 * `<nav>` holding one list whose items are the links and the groups; a group's item holds its toggle
 * (a button saying whether it is expanded, naming the list it controls) and its own list of links.
 */
export function SideMenu() {
  const roles = useAuth((s) => s.roles);
  // Until user-info answers, the keys are the signed-out defaults: show no links rather than a few.
  const loaded = useAuth((s) => s.company_ids !== null);
  const closeMobileMenu = useAuth((s) => s.closeMobileMenu);
  const groups = visibleMenu(roles);
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const idPrefix = useId();
  if (!loaded) return <nav aria-label={t.menu.navigation} aria-busy />;
  return (
    <nav aria-label={t.menu.navigation}>
      <List>
        {TOP_LINKS.filter((link) => can(roles, link.permission)).map((link) => (
          <ListItem key={link.to} disablePadding>
            <ListItemButton component={NavLink} to={link.to} sx={linkSx} onClick={closeMobileMenu}>
              <ListItemIcon>
                <BarChartIcon />
              </ListItemIcon>
              <ListItemText primary={link.label} />
            </ListItemButton>
          </ListItem>
        ))}
        {groups.map((group, index) => {
          const isOpen = open[group.label] ?? true;
          const listId = `${idPrefix}-group-${index}`;
          return (
            <ListItem key={group.label} disablePadding sx={{ display: 'block' }}>
              <ListItemButton
                aria-expanded={isOpen}
                aria-controls={isOpen ? listId : undefined}
                onClick={() => setOpen((o) => ({ ...o, [group.label]: !isOpen }))}
              >
                <ListItemText primary={group.label} />
                {isOpen ? <ExpandLess aria-hidden /> : <ExpandMore aria-hidden />}
              </ListItemButton>
              <Collapse in={isOpen} unmountOnExit>
                <List id={listId} disablePadding aria-label={group.label}>
                  {group.links.map((link) => (
                    <ListItem key={link.to} disablePadding>
                      <ListItemButton
                        component={NavLink}
                        to={link.to}
                        sx={{ ...linkSx, pl: 4 }}
                        onClick={closeMobileMenu}
                      >
                        <ListItemText primary={link.label} />
                      </ListItemButton>
                    </ListItem>
                  ))}
                </List>
              </Collapse>
            </ListItem>
          );
        })}
      </List>
    </nav>
  );
}
