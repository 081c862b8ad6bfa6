// Loaded before anything else on the test pages: every content-security-policy violation is
// recorded, so the test sees one (an eval refused by `script-src 'self'`) instead of passing by accident.
"use strict";
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push({ directive: event.effectiveDirective, blocked: event.blockedURI, sample: event.sample });
});
