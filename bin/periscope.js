#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader, so the command works straight from a checkout.
import { register } from 'tsx/esm/api';

register();
await import('../src/main/cli.ts');
