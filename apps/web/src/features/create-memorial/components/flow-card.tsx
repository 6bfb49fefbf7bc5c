import type { ReactNode } from 'react';

/** The create flow's steps share one calm card, with the step shown for orientation. */
export function FlowCard({
  step,
  title,
  intro,
  children,
}: {
  step: 1 | 2 | 3;
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="relative flex min-h-[calc(100dvh-4rem)] items-start justify-center overflow-hidden py-14 sm:items-center">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(40rem_24rem_at_50%_0%,color-mix(in_srgb,var(--primary)_14%,transparent),transparent)]"
      />
      <div className="relative mx-auto w-full max-w-md px-5">
        <div className="rounded-3xl border border-border bg-card p-7 text-card-foreground shadow-lift sm:p-10">
          <p className="text-xs font-semibold tracking-[0.18em] text-accent uppercase">Stap {step} van 3</p>
          <h1 className="mt-3 text-3xl font-semibold">{title}</h1>
          <div className="mt-3 leading-relaxed text-muted">{intro}</div>
          <div className="mt-8">{children}</div>
        </div>
      </div>
    </section>
  );
}
