/**
 * HTTP responses demo web servers give: default pages, company sites, login pages, open
 * directories, errors and redirects, with the page title and the service labels they imply.
 */
import type { Rng } from './rng.ts';

export type PageKind =
  | 'default'
  | 'site'
  | 'login'
  | 'opendir'
  | 'redirect'
  | 'forbidden'
  | 'notfound'
  | 'unauthorized'
  | 'badgateway'
  | 'api'
  | 'cf-1003'
  | 'routeros';

export interface PageContext {
  /** The server flavour, for default and error pages. */
  readonly server: string;
  readonly distroTag?: string;
  readonly serverVersion?: string;
  readonly org?: string;
  /** Host name or IP the request used. */
  readonly host: string;
  readonly tls: boolean;
}

export interface Page {
  readonly status: number;
  readonly reason: string;
  readonly title?: string;
  readonly body: string;
  readonly contentType: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly labels: readonly string[];
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  301: 'Moved Permanently',
  302: 'Found',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  502: 'Bad Gateway',
};

function html(title: string | undefined, inner: string, head = ''): string {
  const t = title === undefined ? '' : `<title>${title}</title>\n`;
  return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n${t}${head}</head>\n<body>\n${inner}\n</body>\n</html>\n`;
}

function errorPage(ctx: PageContext, status: number): string {
  const reason = REASONS[status];
  const title = `${status} ${reason}`;
  if (ctx.server === 'nginx' || ctx.server === 'openresty') {
    const sig = ctx.server === 'openresty' ? 'openresty' : ctx.serverVersion ? `nginx/${ctx.serverVersion}` : 'nginx';
    return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>${sig}</center>\r\n</body>\r\n</html>\r\n`;
  }
  if (ctx.server === 'apache') {
    return `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>${title}</title>\n</head><body>\n<h1>${reason}</h1>\n<p>${status === 404 ? 'The requested URL was not found on this server.' : "You don't have permission to access this resource."}</p>\n<hr>\n<address>Apache${ctx.serverVersion ? `/${ctx.serverVersion}` : ''}${ctx.distroTag ? ` ${ctx.distroTag}` : ''} Server at ${ctx.host} Port ${ctx.tls ? 443 : 80}</address>\n</body></html>\n`;
  }
  if (ctx.server === 'iis') {
    return html(`${status} - ${reason}`, `<div id="header"><h1>Server Error</h1></div>\n<div id="content"><h2>${status} - ${reason}.</h2></div>`);
  }
  return html(title, `<h1>${title}</h1>`);
}

const SITE_TITLES = ['Home', 'Welcome', 'Official Site', 'Solutions for a connected world', 'Contact us', 'About us', 'Services', 'Our Team'];
const LOGIN_TITLES = [
  'Sign In',
  'Login',
  '{org} Portal - Login',
  'Roundcube Webmail :: Welcome to Roundcube Webmail',
  'Grafana',
  'Sign in [Jenkins]',
  'Sign in · GitLab',
  'phpMyAdmin',
  'Zabbix',
  'Log In ‹ {org} — WordPress',
  'Outlook',
  'Nextcloud',
  'Web Management Login',
  'pfSense - Login',
];
const DEVICE_LOGIN_TITLES = ['Login', 'Web Management Login', 'Router Login', 'NVR Login', 'IP Camera', 'Network Storage - Sign In', 'Welcome to the Configuration Utility'];
const FILES = ['backup.zip', 'backup.tar.gz', 'db.sql', 'dump.sql.gz', 'logs/', 'uploads/', 'config.bak', 'data.csv', 'old/', 'test/', 'invoice-2025.pdf', 'install.sh', 'web.config.old', '.env.bak'];

function defaultPage(ctx: PageContext): { title?: string; body: string } {
  switch (ctx.server) {
    case 'nginx':
      return {
        title: 'Welcome to nginx!',
        body: html('Welcome to nginx!', '<h1>Welcome to nginx!</h1>\n<p>If you see this page, the nginx web server is successfully installed and working. Further configuration is required.</p>\n<p><em>Thank you for using nginx.</em></p>'),
      };
    case 'openresty':
      return { title: 'Welcome to OpenResty!', body: html('Welcome to OpenResty!', '<h1>Welcome to OpenResty!</h1>\n<p>If you see this page, the OpenResty web platform is successfully installed and working.</p>') };
    case 'apache': {
      const tag = ctx.distroTag ?? '';
      const title =
        tag === '(Ubuntu)'
          ? 'Apache2 Ubuntu Default Page: It works'
          : tag === '(Debian)'
            ? 'Apache2 Debian Default Page: It works'
            : tag === '(CentOS)'
              ? 'Apache HTTP Server Test Page powered by CentOS'
              : tag.startsWith('(') && tag !== '()'
                ? `HTTP Server Test Page powered by: ${tag.slice(1, -1)}`
                : undefined;
      if (!title) return { body: '<html><body><h1>It works!</h1></body></html>\n' };
      return { title, body: html(title, `<div class="main_page"><div class="page_header"><span>It works!</span></div><p>This is the default welcome page used to test the correct operation of the Apache2 server after installation.</p></div>`) };
    }
    case 'iis':
      return { title: 'IIS Windows Server', body: html('IIS Windows Server', '<div id="container"><a href="http://go.microsoft.com/fwlink/?linkid=66138&amp;clcid=0x409"><img src="iisstart.png" alt="IIS" width="960" height="600" /></a></div>') };
    case 'lighttpd':
      return { title: 'Welcome page', body: html('Welcome page', '<h1>It works!</h1>\n<p>This is the default index page of lighttpd.</p>') };
    case 'caddy':
      return { title: 'Caddy works!', body: html('Caddy works!', '<h1>Congratulations!</h1>\n<p>Your web server is working. Now make it work for you.</p>') };
    case 'tomcat': {
      const title = `Apache Tomcat/${ctx.serverVersion ?? '9.0.58'}`;
      return { title, body: html(title, `<h1>If you're seeing this, you've successfully installed Tomcat. Congratulations!</h1>`) };
    }
    case 'jetty':
      return { title: 'Error 404 Not Found', body: html('Error 404 Not Found', '<h2>HTTP ERROR 404 Not Found</h2>\n<table><tr><th>URI:</th><td>/</td></tr></table>') };
    default:
      return { title: 'Welcome', body: html('Welcome', '<h1>Welcome</h1>\n<p>Default web page.</p>') };
  }
}

/** Renders a page of `kind`; `rng` should be the service's own stream so re-rendering is stable. */
export function renderPage(kind: PageKind, ctx: PageContext, rng: Rng): Page {
  const org = ctx.org ?? ctx.host;
  switch (kind) {
    case 'default': {
      const p = defaultPage(ctx);
      const status = ctx.server === 'jetty' ? 404 : 200;
      return { status, reason: REASONS[status], ...(p.title ? { title: p.title } : {}), body: p.body, contentType: 'text/html', headers: [], labels: status === 200 ? ['default-landing-page'] : [] };
    }
    case 'site': {
      const title = `${org} | ${rng.pick(SITE_TITLES)}`;
      const body = html(
        title,
        `<header><nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav></header>\n<main><h1>${org}</h1><p>Welcome to ${org}. We have been serving our customers since ${rng.range(1978, 2021)}.</p></main>\n<footer>&copy; 2026 ${org}</footer>`,
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n<link rel="stylesheet" href="/assets/site.css">\n',
      );
      return { status: 200, reason: 'OK', title, body, contentType: 'text/html; charset=utf-8', headers: [], labels: [] };
    }
    case 'login': {
      const device = ctx.server === 'goahead' || ctx.server === 'boa' || ctx.server === 'mini_httpd' || ctx.server === 'uhttpd';
      const title = (device ? rng.pick(DEVICE_LOGIN_TITLES) : rng.pick(LOGIN_TITLES)).replace('{org}', org);
      const body = html(
        title,
        `<form method="post" action="/login">\n<label>Username <input type="text" name="username"></label>\n<label>Password <input type="password" name="password"></label>\n<button type="submit">Sign in</button>\n</form>`,
      );
      const cookie = rng.pick(['PHPSESSID', 'JSESSIONID', 'sessionid', 'SID', 'grafana_session']);
      return {
        status: 200,
        reason: 'OK',
        title,
        body,
        contentType: 'text/html; charset=UTF-8',
        headers: [['Set-Cookie', `${cookie}=${rng.hex(16)}; path=/; HttpOnly`], ['Cache-Control', 'no-store, no-cache, must-revalidate']],
        labels: ['login-page'],
      };
    }
    case 'opendir': {
      const files = rng.shuffle([...FILES]).slice(0, rng.range(3, 8)).sort();
      const rows = files.map((f) => `<a href="${f}">${f}</a>`).join('\n');
      const body = `<html>\n<head><title>Index of /</title></head>\n<body>\n<h1>Index of /</h1><hr><pre><a href="../">../</a>\n${rows}\n</pre><hr></body>\n</html>\n`;
      return { status: 200, reason: 'OK', title: 'Index of /', body, contentType: 'text/html', headers: [], labels: ['open-dir'] };
    }
    case 'redirect': {
      const body = errorPage(ctx, 301);
      return { status: 301, reason: 'Moved Permanently', title: '301 Moved Permanently', body, contentType: 'text/html', headers: [['Location', `https://${ctx.host}/`]], labels: [] };
    }
    case 'forbidden':
      return { status: 403, reason: 'Forbidden', title: ctx.server === 'iis' ? '403 - Forbidden' : '403 Forbidden', body: errorPage(ctx, 403), contentType: 'text/html', headers: [], labels: [] };
    case 'notfound':
      return { status: 404, reason: 'Not Found', title: ctx.server === 'iis' ? '404 - Not Found' : '404 Not Found', body: errorPage(ctx, 404), contentType: 'text/html', headers: [], labels: [] };
    case 'unauthorized': {
      const realm = rng.pick(['Restricted', 'Authorization Required', 'router', 'Protected Area', 'admin']);
      return {
        status: 401,
        reason: 'Unauthorized',
        title: '401 Unauthorized',
        body: html('401 Unauthorized', '<h1>401 Unauthorized</h1>'),
        contentType: 'text/html',
        headers: [['WWW-Authenticate', `Basic realm="${realm}"`]],
        labels: ['login-page'],
      };
    }
    case 'badgateway':
      return { status: 502, reason: 'Bad Gateway', title: '502 Bad Gateway', body: errorPage(ctx, 502), contentType: 'text/html', headers: [], labels: [] };
    case 'api': {
      const ok = rng.chance(0.6);
      const body = ok ? `{"status":"ok","version":"${rng.range(1, 4)}.${rng.range(0, 20)}.${rng.range(0, 9)}"}` : '{"message":"Not Found","code":404}';
      return { status: ok ? 200 : 404, reason: ok ? 'OK' : 'Not Found', body, contentType: 'application/json', headers: [], labels: [] };
    }
    case 'cf-1003': {
      const title = 'Direct IP access not allowed | Cloudflare';
      return {
        status: 403,
        reason: 'Forbidden',
        title,
        body: html(title, '<h1>Error 1003</h1>\n<h2>Direct IP access not allowed</h2>'),
        contentType: 'text/html; charset=UTF-8',
        headers: [['CF-RAY', `${rng.hex(8)}-${rng.pick(['FRA', 'AMS', 'IAD', 'SJC', 'LHR', 'NRT', 'SIN'])}`], ['Cache-Control', 'private, max-age=0, no-store, no-cache, must-revalidate']],
        labels: [],
      };
    }
    case 'routeros': {
      const title = 'RouterOS router configuration page';
      return { status: 200, reason: 'OK', title, body: html(title, '<h1>RouterOS v6</h1>\n<div class="login"><a href="/webfig/">Webfig</a></div>'), contentType: 'text/html', headers: [], labels: ['login-page'] };
    }
  }
}
