/**
 * The default image shown for a client without a logo (docs/rules.md#screens and #dashboard-and-reports): a grey
 * building on a light square, as an SVG data URL (the portal's Content-Security-Policy allows
 * `data:` images), so it costs no request and no asset pipeline.
 */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">' +
  '<rect width="48" height="48" rx="8" fill="#eceff1"/>' +
  '<path fill="#90a4ae" d="M14 38V12h14v8h6v18H14zm4-4h3v-3h-3v3zm0-6h3v-3h-3v3zm0-6h3v-3h-3v3zm0-6h3v-3h-3' +
  'v3zm6 18h3v-3h-3v3zm0-6h3v-3h-3v3zm0-6h3v-3h-3v3zm0-6h3v-3h-3v3zm6 18h2v-3h-2v3zm0-6h2v-3h-2v3z"/>' +
  '</svg>';

export const DEFAULT_LOGO = `data:image/svg+xml,${encodeURIComponent(SVG)}`;
