import { useState } from 'react';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import {
  Bold,
  Heading2,
  Heading3,
  Italic,
  Link2,
  List,
  ListOrdered,
  Quote,
  Redo2,
  Underline,
  Undo2,
  Unlink,
} from 'lucide-react';
import { cn } from '../../../lib/cn.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { controlClass } from '../../../components/form/form.tsx';

/**
 * The biography editor (TipTap). It offers exactly what the server keeps: paragraphs, two heading levels,
 * bold, italic, underline, strike, lists, quotes and https/mailto links.
 */
export function RichTextEditor({
  initialHtml,
  onChange,
  labelId,
  describedBy,
}: {
  initialHtml: string;
  onChange: (html: string, isEmpty: boolean) => void;
  labelId: string;
  describedBy?: string;
}) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        horizontalRule: false,
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ['https', 'mailto'],
          defaultProtocol: 'https',
          HTMLAttributes: { rel: 'noopener noreferrer', target: null },
        },
      }),
    ],
    content: initialHtml || '<p></p>',
    immediatelyRender: true,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        class: 'memorial-editor min-h-[22rem] px-5 py-4 focus:outline-none sm:px-7 sm:py-6',
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.getHTML(), e.isEmpty),
  });

  return (
    <div className="overflow-hidden rounded-2xl border border-input bg-card focus-within:border-ring focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-ring">
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      bullet: e.isActive('bulletList'),
      ordered: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);
  const chain = () => editor.chain().focus();

  const buttons = [
    { label: 'Kop', Icon: Heading2, active: state.h2, run: () => chain().toggleHeading({ level: 2 }).run() },
    {
      label: 'Tussenkop',
      Icon: Heading3,
      active: state.h3,
      run: () => chain().toggleHeading({ level: 3 }).run(),
    },
    { label: 'Vet', Icon: Bold, active: state.bold, run: () => chain().toggleBold().run() },
    { label: 'Cursief', Icon: Italic, active: state.italic, run: () => chain().toggleItalic().run() },
    {
      label: 'Onderstreept',
      Icon: Underline,
      active: state.underline,
      run: () => chain().toggleUnderline().run(),
    },
    { label: 'Opsomming', Icon: List, active: state.bullet, run: () => chain().toggleBulletList().run() },
    {
      label: 'Genummerde lijst',
      Icon: ListOrdered,
      active: state.ordered,
      run: () => chain().toggleOrderedList().run(),
    },
    { label: 'Citaat', Icon: Quote, active: state.quote, run: () => chain().toggleBlockquote().run() },
  ];

  return (
    <div
      role="toolbar"
      aria-label="Opmaak"
      className="flex flex-wrap items-center gap-0.5 border-b border-border bg-background-soft px-2 py-1.5"
    >
      {buttons.map(({ label, Icon, active, run }) => (
        <ToolButton key={label} label={label} pressed={active} onClick={run}>
          <Icon aria-hidden className="h-4 w-4" />
        </ToolButton>
      ))}
      <span aria-hidden className="mx-1 h-5 w-px bg-border" />
      {state.link ? (
        <ToolButton label="Link weghalen" onClick={() => chain().unsetLink().run()}>
          <Unlink aria-hidden className="h-4 w-4" />
        </ToolButton>
      ) : (
        <ToolButton label="Link toevoegen" onClick={() => setLinkOpen(true)}>
          <Link2 aria-hidden className="h-4 w-4" />
        </ToolButton>
      )}
      <span aria-hidden className="mx-1 h-5 w-px bg-border" />
      <ToolButton label="Ongedaan maken" disabled={!state.canUndo} onClick={() => chain().undo().run()}>
        <Undo2 aria-hidden className="h-4 w-4" />
      </ToolButton>
      <ToolButton label="Opnieuw" disabled={!state.canRedo} onClick={() => chain().redo().run()}>
        <Redo2 aria-hidden className="h-4 w-4" />
      </ToolButton>
      <LinkDialog
        open={linkOpen}
        onOpenChange={setLinkOpen}
        onSave={(href) => {
          if (editor.state.selection.empty)
            chain()
              .insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] })
              .run();
          else chain().extendMarkRange('link').setLink({ href }).run();
        }}
      />
    </div>
  );
}

function ToolButton({
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={pressed}
      disabled={disabled}
      onMouseDown={(e) => e.preventDefault()}
      onClick={onClick}
      className={cn(
        'flex h-9 w-9 items-center justify-center rounded-lg text-muted transition-colors hover:bg-secondary hover:text-foreground disabled:opacity-40',
        pressed && 'bg-secondary text-foreground',
      )}
    >
      {children}
    </button>
  );
}

/** https:// or mailto: only (what the server keeps); a bare address becomes https. */
export function normaliseLink(input: string): string | null {
  const value = input.trim();
  if (!value) return null;
  if (/^mailto:[^\s@]+@[^\s@]+\.[^\s@]+$/i.test(value)) return value;
  if (/^[^\s@/]+@[^\s@]+\.[^\s@]+$/.test(value)) return `mailto:${value}`;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    return url.protocol === 'https:' && url.hostname.includes('.') ? url.toString() : null;
  } catch {
    return null;
  }
}

function LinkDialog({
  open,
  onOpenChange,
  onSave,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onSave: (href: string) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Link toevoegen"
      description="Een webadres (https) of een e-mailadres."
      size="sm"
    >
      {open && (
        <LinkForm
          onCancel={() => onOpenChange(false)}
          onSave={(href) => (onSave(href), onOpenChange(false))}
        />
      )}
    </Dialog>
  );
}

function LinkForm({ onCancel, onSave }: { onCancel: () => void; onSave: (href: string) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const href = normaliseLink(value);
        if (!href) return setError('Vul een webadres in dat met https begint, of een e-mailadres.');
        onSave(href);
      }}
      className="flex flex-col gap-4"
    >
      <label className="flex flex-col gap-1.5 text-sm font-medium">
        Adres
        <input
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-invalid={!!error}
          aria-describedby={error ? 'link-error' : undefined}
          placeholder="https://…"
          className={cn(controlClass, 'h-12 font-normal')}
        />
      </label>
      {error && (
        <p id="link-error" className="text-sm text-danger">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-3">
        <Button variant="outline" onClick={onCancel}>
          Annuleren
        </Button>
        <Button type="submit">Link toevoegen</Button>
      </div>
    </form>
  );
}
