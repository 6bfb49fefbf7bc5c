import { PricingSection } from './pricing/pricing-section.tsx';

export default function PricingPage() {
  return (
    <>
      <title>Prijzen · Aandenken</title>
      <PricingSection headingLevel={1} />
    </>
  );
}
