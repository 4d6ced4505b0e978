/**
 * The part of jstat 1.9.6 (CommonJS, no bundled types) that the statistics use: the
 * noncentral t CDF, which no other maintained npm library offers.
 */
declare module 'jstat' {
  interface JStat {
    noncentralt: {
      cdf(x: number, dof: number, ncp: number): number;
    };
  }
  const jStat: JStat;
  export default jStat;
}
