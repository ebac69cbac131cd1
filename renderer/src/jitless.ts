// Imported first by main.tsx: zod must not compile validators with `new Function`,
// because the page's CSP forbids eval (script-src 'self' with no 'unsafe-eval').
import { z } from 'zod';

z.config({ jitless: true });
