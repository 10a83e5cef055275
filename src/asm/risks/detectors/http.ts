/** What web responses give away: logins without TLS, missing headers, listings, admin panels, default pages. */
import type { ServiceDoc } from '../risk-model.ts';
import { hasHeader, headerValues, httpBody, httpStatus, httpTitle, isTls, protocol, serviceLabels } from '../service-view.ts';
import { finding, type ServiceDetector } from './detector.ts';

const PASSWORD_INPUT = /<input\b[^>]*\btype\s*=\s*["']?password\b/i;

function isHttp(s: ServiceDoc): boolean {
  return protocol(s, 'http') !== undefined;
}

function ok(s: ServiceDoc): boolean {
  const st = httpStatus(s);
  return st !== undefined && st >= 200 && st < 300;
}

function isHtml(s: ServiceDoc): boolean {
  const ct = headerValues(s, 'content-type')[0];
  if (ct) return /html/i.test(ct);
  return httpTitle(s) !== undefined || /<html/i.test(httpBody(s) ?? '');
}

export const loginOverPlaintext: ServiceDetector = {
  id: 'login-over-plaintext',
  family: 'http',
  on: 'service',
  types: ['service.http.login_over_plaintext'],
  detect(s) {
    if (!isHttp(s) || isTls(s)) return [];
    const body = httpBody(s) ?? '';
    if (!PASSWORD_INPUT.test(body)) return [];
    const title = httpTitle(s);
    return [finding('service.http.login_over_plaintext', { ...(title ? { title } : {}), passwordField: true })];
  },
};

export const basicAuthOverPlaintext: ServiceDetector = {
  id: 'basic-auth-over-plaintext',
  family: 'http',
  on: 'service',
  types: ['service.http.basic_auth_over_plaintext'],
  detect(s) {
    if (!isHttp(s) || isTls(s)) return [];
    const challenge = headerValues(s, 'www-authenticate').find((v) => /^\s*basic\b/i.test(v));
    return challenge ? [finding('service.http.basic_auth_over_plaintext', { wwwAuthenticate: challenge })] : [];
  },
};

export const missingHsts: ServiceDetector = {
  id: 'missing-hsts',
  family: 'http',
  on: 'service',
  types: ['service.http.missing_hsts'],
  detect(s) {
    if (!isHttp(s) || !isTls(s) || !ok(s) || hasHeader(s, 'strict-transport-security')) return [];
    return [finding('service.http.missing_hsts', { statusCode: httpStatus(s) })];
  },
};

export const missingSecurityHeaders: ServiceDetector = {
  id: 'missing-security-headers',
  family: 'http',
  on: 'service',
  types: ['service.http.missing_security_headers'],
  detect(s) {
    if (!isHttp(s) || !ok(s) || !isHtml(s)) return [];
    const missing: string[] = [];
    const csp = headerValues(s, 'content-security-policy').join(';');
    if (!hasHeader(s, 'x-frame-options') && !/frame-ancestors/i.test(csp)) missing.push('X-Frame-Options');
    if (!hasHeader(s, 'x-content-type-options')) missing.push('X-Content-Type-Options');
    return missing.length ? [finding('service.http.missing_security_headers', { missing })] : [];
  },
};

export const directoryListing: ServiceDetector = {
  id: 'directory-listing',
  family: 'http',
  on: 'service',
  types: ['service.http.directory_listing'],
  detect(s) {
    if (!isHttp(s)) return [];
    const title = httpTitle(s) ?? '';
    const body = httpBody(s) ?? '';
    const listed = /^\s*(Index of \/|Directory listing for \/)/i.test(title) || /<h1>\s*(Index of \/|Directory listing for \/)/i.test(body) || serviceLabels(s).includes('open-dir');
    return listed && ok(s) ? [finding('service.http.directory_listing', { title })] : [];
  },
};

const ADMIN_TITLES: readonly (readonly [RegExp, string])[] = [
  [/phpMyAdmin/i, 'phpMyAdmin'],
  [/\bJenkins\b/i, 'Jenkins'],
  [/\bGrafana\b/i, 'Grafana'],
  [/\bZabbix\b/i, 'Zabbix'],
  [/\bpfSense\b/i, 'pfSense'],
  [/\bWebmin\b/i, 'Webmin'],
  [/\bKibana\b/i, 'Kibana'],
  [/\bPortainer\b/i, 'Portainer'],
  [/\bcPanel\b/i, 'cPanel'],
  [/\bPlesk\b/i, 'Plesk'],
  [/Tomcat .*Manager|Manager App/i, 'Tomcat Manager'],
  [/Log In ‹ .*WordPress|WordPress › Log In|wp-login/i, 'WordPress login'],
  [/RouterOS router configuration/i, 'MikroTik RouterOS'],
  [/Router Login|Web Management Login|Configuration Utility|NVR Login|Network Storage/i, 'device management'],
  [/\biDRAC\b|Integrated Lights-Out|\biLO\b/i, 'server management controller'],
  [/Sign in · GitLab/i, 'GitLab'],
];

export const adminPanel: ServiceDetector = {
  id: 'admin-panel',
  family: 'http',
  on: 'service',
  types: ['service.http.admin_panel_exposed'],
  detect(s) {
    if (!isHttp(s)) return [];
    const title = httpTitle(s);
    if (!title) return [];
    const hit = ADMIN_TITLES.find(([re]) => re.test(title));
    return hit ? [finding('service.http.admin_panel_exposed', { title, product: hit[1] })] : [];
  },
};

const DEFAULT_TITLES = /^(Welcome to nginx!|Welcome to OpenResty!|Apache2 (Ubuntu|Debian) Default Page: It works|Apache HTTP Server Test Page powered by .*|HTTP Server Test Page powered by.*|Test Page for the (Apache|Nginx) HTTP Server.*|IIS Windows Server|IIS\d* Windows Server|Caddy works!|Apache Tomcat\/[\d.]+)$/i;

export const defaultPage: ServiceDetector = {
  id: 'default-page',
  family: 'http',
  on: 'service',
  types: ['service.http.default_page'],
  detect(s) {
    if (!isHttp(s) || !ok(s)) return [];
    const title = httpTitle(s) ?? '';
    const body = httpBody(s) ?? '';
    const byTitle = DEFAULT_TITLES.test(title.trim());
    const byBody = !title && /^<html><body><h1>It works!<\/h1><\/body><\/html>\s*$/i.test(body);
    if (!byTitle && !byBody && !serviceLabels(s).includes('default-landing-page')) return [];
    return [finding('service.http.default_page', { ...(title ? { title } : {}) })];
  },
};
