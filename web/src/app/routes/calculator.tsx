import { CalculatorScreen } from '../../features/calculator/components/calculator-screen';

/** /calculator (guarded). */
export function Component() {
  return <CalculatorScreen />;
}
