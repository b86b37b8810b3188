/**
 * The pages' whole stylesheet (no MUI here: docs/conventions.md#traps). Mobile first: at 390 px nothing
 * scrolls sideways (long numbers and scopes wrap); colours keep a contrast of at least 4.5:1.
 */
export const CSS = `
.pc-page{box-sizing:border-box;min-height:100vh;margin:0;padding:16px;background:#f3f5f8;color:#1a1f29;
  font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;font-size:16px;line-height:1.5;
  overflow-wrap:anywhere}
.pc-page *,.pc-page *::before,.pc-page *::after{box-sizing:border-box}
.pc-card{max-width:760px;margin:0 auto;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(16,24,40,.12);padding:20px}
.pc-top{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:flex-start;justify-content:space-between}
.pc-site{margin:0;font-size:.875rem;color:#475467;font-weight:600;letter-spacing:.02em}
.pc-title{margin:2px 0 4px;font-size:1.5rem;line-height:1.25}
.pc-intro{margin:0 0 16px;color:#344054}
.pc-lang{display:inline-flex;border:1px solid #98a2b3;border-radius:8px;overflow:hidden;flex:none}
.pc-lang button{font:inherit;font-size:.875rem;padding:6px 12px;border:0;background:#fff;color:#1d2939;cursor:pointer;min-height:40px}
.pc-lang button[aria-pressed="true"]{background:#1d4ed8;color:#fff}
.pc-form{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin:0 0 8px}
.pc-field{display:flex;flex-direction:column;gap:4px;flex:1 1 220px;min-width:0}
.pc-field label{font-weight:600;font-size:.9375rem}
.pc-input{font:inherit;width:100%;min-height:44px;padding:8px 12px;border:1px solid #667085;border-radius:8px;color:#101828;background:#fff}
.pc-button{font:inherit;font-weight:600;min-height:44px;padding:8px 20px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;cursor:pointer}
.pc-button:disabled{background:#5b7bd5;cursor:progress}
.pc-button.pc-secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
.pc-page :focus-visible{outline:3px solid #f79009;outline-offset:2px}
.pc-box{margin:16px 0 0;padding:14px 16px;border-radius:10px;border:1px solid}
.pc-box h2,.pc-box h3{margin:0 0 4px;font-size:1.125rem}
.pc-box p{margin:0}
.pc-notfound{background:#fef3f2;border-color:#f04438;color:#7a271a}
.pc-error{background:#fffaeb;border-color:#dc6803;color:#7a2e0e}
.pc-ok{background:#ecfdf3;border-color:#12b76a;color:#05603a}
.pc-bad{background:#fef3f2;border-color:#f04438;color:#7a271a}
.pc-result h2{font-size:1.25rem;margin:20px 0 8px}
.pc-table{width:100%;border-collapse:collapse;table-layout:fixed}
.pc-table th,.pc-table td{text-align:left;vertical-align:top;padding:8px 6px;border-bottom:1px solid #eaecf0}
.pc-table th{width:42%;font-weight:600;color:#344054}
.pc-flag{display:inline-block;padding:2px 10px;border-radius:999px;font-weight:700;font-size:.875rem;color:#fff;background:#b42318}
.pc-flag.pc-active{background:#067647}
.pc-history{margin:0;padding-left:20px}
.pc-actions{margin:16px 0 0;display:flex;flex-wrap:wrap;gap:8px}
.pc-download{display:inline-flex;align-items:center;min-height:44px;padding:8px 20px;border-radius:8px;background:#067647;color:#fff;font-weight:600;text-decoration:none}
.pc-validon{margin:20px 0 0;padding:14px 16px;border:1px solid #d0d5dd;border-radius:10px}
.pc-validon h2{margin:0 0 8px;font-size:1.125rem}
.pc-muted{color:#475467;font-size:.875rem}
@media (min-width:600px){.pc-page{padding:32px}.pc-card{padding:28px}.pc-title{font-size:1.75rem}}
`;
