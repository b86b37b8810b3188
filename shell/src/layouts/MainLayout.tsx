import { type ReactNode, useEffect } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Link from '@mui/material/Link';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import FullscreenIcon from '@mui/icons-material/Fullscreen';
import MenuIcon from '@mui/icons-material/Menu';
import { useAuth } from '@sertifikasi/shared-auth';
import { CompanySelector } from '../components/CompanySelector';
import { SideMenu } from './SideMenu';
import { t } from '../i18n/id';

const DRAWER = 260;

/** The id of the content area, where the skip link leads. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * The first stop of the Tab key on every signed-in screen: 'Langsung ke konten utama', off screen
 * until it has the focus, then shown at the top left above everything. It moves the focus to the
 * content area (past the menu and the header) without changing the address.
 */
function SkipLink() {
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      onClick={(event) => {
        event.preventDefault();
        // The header is sticky above the content: focusing without scrolling keeps both in view.
        document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
      }}
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        bgcolor: 'background.paper',
        borderRadius: 1,
        boxShadow: 3,
        fontWeight: 600,
        transform: 'translateY(-200%)',
        '&:focus, &:focus-visible': { transform: 'none' },
      }}
    >
      {t.header.skipToContent}
    </Link>
  );
}

function toggleFullscreen() {
  if (document.fullscreenElement) void document.exitFullscreen();
  else void document.documentElement.requestFullscreen?.();
}

/**
 * Keeps the keyboard's place: when the element that had the focus leaves the page (the row just
 * deleted, whose 'Hapus' opened the confirmation; a list that reloaded), the focus would fall to
 * the page's start; it goes to the content area instead. Dialogs themselves give the focus back to
 * their opener (MUI's focus trap).
 */
function useFocusRescue() {
  useEffect(() => {
    let last: Element | null = null;
    const onFocusIn = (event: FocusEvent) => {
      last = event.target instanceof Element ? event.target : null;
    };
    const observer = new MutationObserver(() => {
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (last && !last.isConnected && lost) {
        last = null;
        document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
      }
    });
    document.addEventListener('focusin', onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      observer.disconnect();
    };
  }, []);
}

/** The menu's own top: the product name (and, in the phone menu, a close button). */
function MenuTop({ onClose }: { onClose?: () => void }) {
  return (
    <Toolbar sx={{ gap: 1 }}>
      <Typography variant="h6" component="div" sx={{ flexGrow: 1 }}>
        {t.appName}
      </Typography>
      {onClose && (
        <IconButton aria-label={t.header.closeMenu} onClick={onClose} edge="end">
          <CloseIcon />
        </IconButton>
      )}
    </Toolbar>
  );
}

/**
 * Navigation, header, content area and footer (every signed-in screen), from 320 px up:
 * - from 900 px (`md`) the menu is a column on the left and the header sits beside it;
 * - below, the menu opens from the hamburger as a drawer above everything (the header included), and
 *   the header puts the company selector and the greeting on a second row.
 * The header is in the page's flow (sticky at the top), so however many rows it wraps to, the content
 * starts below it and never under it.
 */
export function MainLayout({ title, children }: { title: string; children: ReactNode }) {
  const name = useAuth((s) => s.user?.name);
  const logout = useAuth((s) => s.logout);
  const mobileOpen = useAuth((s) => s.mobileMenuOpen);
  const toggleMobileMenu = useAuth((s) => s.toggleMobileMenu);
  const closeMobileMenu = useAuth((s) => s.closeMobileMenu);
  const navigate = useNavigate();
  useFocusRescue();
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <SkipLink />
      <Drawer
        variant="temporary"
        open={mobileOpen}
        onClose={closeMobileMenu}
        sx={{ display: { md: 'none' } }}
        slotProps={{ paper: { sx: { width: DRAWER, maxWidth: '85vw' } } }}
      >
        <MenuTop onClose={closeMobileMenu} />
        <SideMenu />
      </Drawer>
      <Drawer
        variant="permanent"
        sx={{ display: { xs: 'none', md: 'block' }, width: DRAWER, flexShrink: 0 }}
        slotProps={{ paper: { sx: { width: DRAWER } } }}
      >
        <MenuTop />
        <SideMenu />
      </Drawer>
      <Box sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <AppBar position="sticky" color="default">
          <Toolbar sx={{ flexWrap: 'wrap', columnGap: { xs: 1, sm: 2 }, rowGap: 1, py: 1 }}>
            <IconButton
              aria-label={t.header.menu}
              onClick={toggleMobileMenu}
              edge="start"
              sx={{ display: { md: 'none' } }}
            >
              <MenuIcon />
            </IconButton>
            <Typography
              variant="h6"
              component="h1"
              sx={{
                flex: '1 1 0',
                minWidth: 0,
                overflowWrap: 'anywhere',
                fontSize: { xs: '1.1rem', sm: '1.25rem' },
              }}
            >
              {title}
            </Typography>
            <Box
              sx={{
                order: { xs: 1, md: 0 },
                flexBasis: { xs: '100%', md: 'auto' },
                display: 'flex',
                alignItems: 'center',
                gap: 2,
                minWidth: 0,
              }}
            >
              <CompanySelector />
              <Link
                component={RouterLink}
                to="/profile"
                underline="hover"
                // On a narrow phone the greeting gives way (ellipsis) before the company selector.
                sx={{
                  flex: '0 100 auto',
                  minWidth: 0,
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
              >
                {t.header.greeting} {name || '-'}
              </Link>
            </Box>
            <IconButton aria-label={t.header.fullscreen} onClick={toggleFullscreen}>
              <FullscreenIcon />
            </IconButton>
            <Button
              variant="outlined"
              sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
              onClick={() => void logout().then(() => navigate('/login', { replace: true }))}
            >
              {t.header.logout}
            </Button>
          </Toolbar>
        </AppBar>
        <Box
          component="main"
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          sx={{ p: { xs: 2, sm: 3 }, flexGrow: 1, minWidth: 0, '&:focus': { outline: 'none' } }}
        >
          {children}
        </Box>
        <Box component="footer" sx={{ p: 2, color: 'text.secondary', textAlign: 'center' }}>
          {t.footer}
        </Box>
      </Box>
    </Box>
  );
}
