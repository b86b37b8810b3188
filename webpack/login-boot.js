// login.html's scripts start after its first paint (docs/architecture.md#the-front-end).
const crypto = require('node:crypto');
const HtmlWebpackPlugin = require('html-webpack-plugin');

/**
 * The one script login.html names: once the drawn form has been painted (the browser's
 * first-contentful-paint; where it does not tell, after the load event and the next frame), or at
 * once when someone uses the form, it adds the page's own scripts and the
 * prefetch of the 'first' chunk. Written out with their URLs, so it imports nothing and weighs a
 * few hundred bytes; an external file because the portal's Content-Security-Policy allows no inline
 * script. `__SCRIPTS__` and `__PREFETCH__` are JSON arrays of URLs. Its uses of the form are
 * boot-form.ts's STARTERS, and it marks a submitted form with boot-form.ts's SUBMITTED_MARK, so a
 * press of 'Login' before the portal's scripts have run still signs in (a shell test holds both
 * equal).
 */
const BOOT_SOURCE = `(function () {
  var scripts = __SCRIPTS__, prefetch = __PREFETCH__, started = false;
  var starters = ['focusin', 'pointerdown', 'keydown', 'input', 'submit'];
  function start() {
    if (started) return;
    started = true;
    starters.forEach(function (type) { document.removeEventListener(type, start, true); });
    scripts.forEach(function (src) {
      var s = document.createElement('script');
      s.src = src;
      s.async = false;
      document.head.appendChild(s);
    });
    prefetch.forEach(function (href) {
      var l = document.createElement('link');
      l.rel = 'prefetch';
      l.as = 'script';
      l.href = href;
      document.head.appendChild(l);
    });
  }
  starters.forEach(function (type) { document.addEventListener(type, start, true); });
  // A submit before the portal's scripts have run is marked on the form, for boot-form.ts to take.
  document.addEventListener('submit', function (event) {
    if (event.target && event.target.setAttribute) event.target.setAttribute('data-boot-submitted', '');
  }, true);
  function afterLoad() { requestAnimationFrame(function () { setTimeout(start, 0); }); }
  var types = (window.PerformanceObserver && PerformanceObserver.supportedEntryTypes) || [];
  if (types.indexOf('paint') >= 0) {
    // The first paint with the form in it has happened (buffered: also when it came before this ran).
    new PerformanceObserver(function (list, observer) {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(start, 0);
    }).observe({ type: 'paint', buffered: true });
  } else if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad);
})();
`;

/**
 * For the HtmlWebpackPlugin page made with `loginForm` (login.html): its script tags and the
 * 'first' chunk's prefetch (PreloadFirstChunk) are replaced by `login-boot.<hash>.js`, which adds
 * them after the form is painted. Fetched beside the page, they would be part of what the page's
 * first paint is measured against on a slow phone (Lighthouse counts what starts before it); the
 * form does not need them until it is used (shell/src/boot-form.ts).
 */
class LoginBootScript {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('LoginBootScript', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('LoginBootScript', (data) => {
        if (!data.plugin.userOptions.loginForm) return data;
        const isScript = (tag) => tag.tagName === 'script' && tag.attributes.src;
        const isPrefetch = (tag) => tag.tagName === 'link' && tag.attributes.rel === 'prefetch';
        const all = [...data.headTags, ...data.bodyTags];
        const scripts = all.filter(isScript).map((tag) => tag.attributes.src);
        const prefetch = all.filter(isPrefetch).map((tag) => tag.attributes.href);
        const source = BOOT_SOURCE.replace('__SCRIPTS__', JSON.stringify(scripts)).replace(
          '__PREFETCH__',
          JSON.stringify(prefetch),
        );
        const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 20);
        const file = `login-boot.${hash}.js`;
        if (!compilation.getAsset(file)) {
          compilation.emitAsset(file, new compiler.webpack.sources.RawSource(source));
        }
        const keep = (tag) => !isScript(tag) && !isPrefetch(tag);
        data.headTags = data.headTags.filter(keep);
        data.bodyTags = data.bodyTags.filter(keep);
        data.headTags.push({
          tagName: 'script',
          voidTag: false,
          attributes: { defer: true, src: `${data.publicPath ?? '/'}${file}` },
          meta: { plugin: 'LoginBootScript' },
        });
        return data;
      });
    });
  }
}

module.exports = { LoginBootScript, BOOT_SOURCE };
