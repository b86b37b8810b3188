import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import MenuIcon from '@mui/icons-material/Menu';
import { useAuth } from '@sertifikasi/shared-auth';
import { CompanySelector } from '../components/CompanySelector';
import { SideMenu } from './SideMenu';
import { t } from '../i18n/id';

const DRAWER = 260;

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.();
}

/** Navigation, header, content area and footer (every signed-in screen). */
export function MainLayout({ title, children }: { title: string; children: ReactNode }) {
  const name = useAuth((s) => s.user?.name);
  const logout = useAuth((s) => s.logout);
  const mobileOpen = useAuth((s) => s.mobileMenuOpen);
  const toggleMobileMenu = useAuth((s) => s.toggleMobileMenu);
  const navigate = useNavigate();
  const drawer = (
    <Box sx={{ width: DRAWER }}>
      <Toolbar>
        <Typography variant="h6" component="div">
          {t.appName}
        </Typography>
      </Toolbar>
      <SideMenu />
    </Box>
  );
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar position="fixed" color="default" sx={{ zIndex: (th) => th.zIndex.drawer + 1 }}>
        <Toolbar sx={{ gap: 2, flexWrap: 'wrap' }}>
          <IconButton aria-label={t.header.menu} onClick={toggleMobileMenu} sx={{ display: { md: 'none' } }}>
            <MenuIcon />
          </IconButton>
          <Typography variant="h6" component="h1" sx={{ flexGrow: 1 }}>
            {title}
          </Typography>
          <CompanySelector />
          <Link component={RouterLink} to="/profile" underline="hover">
            {t.header.greeting} {name || '-'}
          </Link>
          <IconButton aria-label={t.header.fullscreen} onClick={toggleFullscreen}>
            <FullscreenIcon />
          </IconButton>
          <Button
            variant="outlined"
            onClick={() => void logout().then(() => navigate('/login', { replace: true }))}
          >
            {t.header.logout}
          </Button>
        </Toolbar>
      </AppBar>
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={toggleMobileMenu}
        sx={{ display: { md: 'none' } }}
      >
        {drawer}
      </Drawer>
      <Drawer variant="permanent" sx={{ display: { xs: 'none', md: 'block' }, width: DRAWER, flexShrink: 0 }}>
        {drawer}
      </Drawer>
      <Box sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <Toolbar />
        <Box component="main" sx={{ p: 3, flexGrow: 1 }}>
          {children}
        </Box>
        <Box component="footer" sx={{ p: 2, color: 'text.secondary', textAlign: 'center' }}>
          {t.footer}
        </Box>
      </Box>
    </Box>
  );
}
