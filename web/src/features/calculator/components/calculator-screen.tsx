import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { analyseBlend, analyseFabric, type Analysis } from '../analysis';
import { FABRICS, findFabric } from '../fabrics';
import { blendProblem, formatHz, MIN_BLEND_ROWS } from '../scoring';
import { AnalysisResult } from './analysis-result';
import { BlendForm, type KeyedBlendRow } from './blend-form';
import { AboutTheseNumbers, CalculatorLegend } from './calculator-notes';

type Mode = 'single' | 'blend';

const singleOptions = FABRICS.map((f) => ({ value: f.id, label: `${f.name} (${formatHz(f.frequency)})` }));

/** /calculator: the fabric frequency calculator (web only; the catalogue is fixed). */
export function CalculatorScreen() {
  const nextKey = useRef(MIN_BLEND_ROWS);
  const [mode, setMode] = useState<Mode>('single');
  const [fabricId, setFabricId] = useState('');
  const [rows, setRows] = useState<KeyedBlendRow[]>(() =>
    Array.from({ length: MIN_BLEND_ROWS }, (_, key) => ({ key, fabricId: '', percentage: '' })),
  );
  const [result, setResult] = useState<Analysis | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  /** Set by Try Another: once the form is back, focus its first choice (not <body>). */
  const refocus = useRef(false);

  useEffect(() => {
    if (result || !refocus.current) return;
    refocus.current = false;
    // Single: the fabric list; blend: the first row's fabric.
    formRef.current?.querySelector<HTMLElement>(mode === 'single' ? '#single-fabric' : '[id^="blend-fabric-"]')?.focus();
  }, [result, mode]);

  const problem = mode === 'single' ? (fabricId === '' ? 'Choose a fabric to see how it rates.' : null) : blendProblem(rows);
  const canCalculate = problem === null;

  const calculate = () => {
    if (!canCalculate) return;
    setResult(mode === 'single' ? analyseFabric(findFabric(fabricId)!) : analyseBlend(rows));
  };

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 lg:py-14">
      <header className="max-w-2xl">
        <h1 className="text-3xl font-semibold tracking-tight text-night-950 sm:text-4xl">Clothes Frequency Calculator</h1>
        <p className="mt-3 text-lg text-night-700">
          See how a fabric, or the blend on your pyjamas&apos; label, rates on the popular fabric-frequency chart.
        </p>
      </header>

      <div className="mt-8 grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        {result ? (
          <AnalysisResult
            result={result}
            onTryAnother={() => {
              refocus.current = true;
              setResult(null);
            }}
          />
        ) : (
          <Card className="p-6 sm:p-8">
            <form
              ref={formRef}
              aria-label="Fabric frequency calculator"
              onSubmit={(event) => {
                event.preventDefault();
                calculate();
              }}
            >
              <Tabs value={mode} onValueChange={(value) => setMode(value as Mode)}>
                <TabsList aria-label="Single fabric or blend">
                  <TabsTrigger value="single">Single Fabric</TabsTrigger>
                  <TabsTrigger value="blend">Fabric Blend</TabsTrigger>
                </TabsList>
                <TabsContent value="single" className="grid gap-2">
                  <Label htmlFor="single-fabric">Fabric</Label>
                  <Select
                    id="single-fabric"
                    value={fabricId}
                    onValueChange={setFabricId}
                    options={singleOptions}
                    placeholder="Choose a fabric"
                  />
                </TabsContent>
                <TabsContent value="blend">
                  <BlendForm
                    rows={rows}
                    onChange={setRows}
                    onAdd={() => setRows((r) => [...r, { key: nextKey.current++, fabricId: '', percentage: '' }])}
                  />
                </TabsContent>
              </Tabs>
              <Button
                type="submit"
                size="lg"
                disabled={!canCalculate}
                aria-describedby={problem ? 'calculate-problem' : undefined}
                className="mt-8 w-full"
              >
                Calculate Energy Impact
              </Button>
              {problem ? (
                <p id="calculate-problem" className="mt-3 text-center text-base text-night-700">
                  {problem}
                </p>
              ) : null}
            </form>
          </Card>
        )}

        <aside className="grid gap-6" aria-label="About the calculator">
          <CalculatorLegend />
          <AboutTheseNumbers />
        </aside>
      </div>
    </div>
  );
}
