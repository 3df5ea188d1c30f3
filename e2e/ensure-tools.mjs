#!/usr/bin/env node
// Finds or installs the system tools the tests need: Debian's Chromium (never a downloaded browser)
// xmllint (libxml2-utils, to validate JUnit exports against the XSD) and curl (the inspector's
// "Copy as cURL" is run as copied). Prints what it found.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const have = (cmd) => {
  try {
    execSync(`command -v ${cmd}`, { stdio: 'ignore', shell: '/bin/sh' });
    return true;
  } catch {
    return false;
  }
};
const isRoot = process.getuid?.() === 0;
const missing = [];
const chromium = process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!chromium) missing.push('chromium');
if (!have('xmllint')) missing.push('libxml2-utils');
if (!have('curl')) missing.push('curl');

if (missing.length) {
  const sudo = isRoot ? '' : have('sudo') ? 'sudo -n ' : null;
  if (sudo === null) {
    console.error(`Missing ${missing.join(', ')} and not root: install them with apt-get install -y ${missing.join(' ')}`);
    process.exit(1);
  }
  console.log(`Installing ${missing.join(', ')} from Debian's packages...`);
  execSync(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq ${missing.join(' ')}`, {
    stdio: 'inherit',
    shell: '/bin/sh',
  });
}
const found = process.env.CHROMIUM_PATH || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
if (!found) {
  console.error('Chromium is still missing after the install attempt.');
  process.exit(1);
}
console.log(`chromium: ${found}; xmllint: ${have('xmllint') ? 'yes' : 'no'}; curl: ${have('curl') ? 'yes' : 'no'}`);
