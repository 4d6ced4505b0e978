/**
 * What the /auth screen asks of its two forms when she switches tab: switching tab
 * clears messages (spec, /auth). What she typed stays.
 */
export interface AuthFormHandle {
  clearMessages(): void;
}
