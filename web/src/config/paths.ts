/** Every route path of the web app, in one place (docs/product.md §2, "Route table"). */
export const paths = {
  home: '/',
  dashboard: '/dashboard',
  auth: '/auth',
  resetPassword: '/reset-password',
  settings: '/settings',
  admin: {
    root: '/admin',
    research: '/admin/research',
    audit: '/admin/audit',
  },
  sleep: {
    consent: '/sleep/consent',
    log: '/sleep/log',
    root: '/sleep',
    dashboard: '/sleep/dashboard',
    weeklyReport: '/sleep/weekly-report',
    charts: '/sleep/charts',
    export: '/sleep/export',
  },
  journal: '/journal',
  community: {
    root: '/community',
    thread: (id: string) => `/community/thread/${encodeURIComponent(id)}`,
  },
  library: {
    root: '/library',
    article: (id: string) => `/library/article/${encodeURIComponent(id)}`,
  },
  calculator: '/calculator',
} as const;
