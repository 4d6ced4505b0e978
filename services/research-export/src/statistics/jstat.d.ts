/**
 * The part of jstat 1.9.6 (CommonJS, no bundled types) that the statistics use: the
 * noncentral t CDF, which no other maintained npm library offers (and, in its tests, the
 * functions that CDF is made of).
 */
declare module 'jstat' {
  interface JStat {
    noncentralt: {
      cdf(x: number, dof: number, ncp: number): number;
    };
    normal: { cdf(x: number, mean: number, sd: number): number };
    beta: { cdf(x: number, alpha: number, beta: number): number };
    gammaln(x: number): number;
  }
  const jStat: JStat;
  export default jStat;
}
