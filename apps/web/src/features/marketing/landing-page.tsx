import { PartnerBox } from './components/partner-box.tsx';
import { Hero } from './components/hero.tsx';
import { DemoSection } from './demo/demo-section.tsx';
import { ExamplesSection } from './examples/examples-section.tsx';
import { PricingSection } from './pricing/pricing-section.tsx';

export default function LandingPage() {
  return (
    <>
      <title>Aandenken · Een plek waar herinneringen voortleven</title>
      <Hero />
      <PartnerBox />
      <ExamplesSection />
      <DemoSection />
      <PricingSection />
    </>
  );
}
