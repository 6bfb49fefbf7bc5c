import { Send } from 'lucide-react';
import {
  inviteCreateSchema,
  inviteRoles,
  memberRoleLabels,
  type MemberRole,
  type Memorial,
} from '@aandenken/contract';
import { Form, FormError, SelectField, SubmitButton, TextField } from '../../../../components/form/form.tsx';
import { toast } from '../../../../lib/toast.ts';
import { useInvite } from '../../api/people.ts';
import { roleDescriptions } from './roles.ts';

/** Invite by e-mail with a role; an editor cannot make someone editor. */
export function InviteForm({ memorial, actor }: { memorial: Memorial; actor: MemberRole }) {
  const invite = useInvite(memorial.id);
  const roles = inviteRoles.filter((r) => actor === 'owner' || r !== 'editor');
  return (
    <Form
      schema={inviteCreateSchema}
      defaultValues={{ email: '', name: '', role: 'guest' }}
      aria-label="Uitnodiging versturen"
      className="grid gap-5 sm:grid-cols-2"
      onSubmit={async (values, form) => {
        const sent = await invite.mutateAsync(values);
        form.reset({ email: '', name: '', role: values.role });
        // The mail is queued with the invitation and retried until it goes out (decision 010).
        toast.success('De uitnodiging is verstuurd', `Naar ${sent.email}`);
      }}
    >
      {() => (
        <>
          <TextField name="email" label="E-mailadres" type="email" required autoComplete="off" />
          <TextField name="name" label="Naam (niet verplicht)" autoComplete="off" />
          <SelectField
            name="role"
            label="Rol"
            required
            placeholder="Kies een rol"
            options={roles.map((r) => ({
              value: r,
              label: `${memberRoleLabels[r]}: ${roleDescriptions[r]}`,
            }))}
            className="sm:col-span-2"
          />
          <FormError className="sm:col-span-2" />
          <div className="sm:col-span-2">
            <SubmitButton
              disabled={memorial.status === 'archived'}
              icon={<Send aria-hidden className="h-4 w-4" />}
            >
              Uitnodiging versturen
            </SubmitButton>
          </div>
        </>
      )}
    </Form>
  );
}
