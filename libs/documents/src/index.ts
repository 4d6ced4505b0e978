export * from './fonts.ts';
export * from './pdf.ts';
