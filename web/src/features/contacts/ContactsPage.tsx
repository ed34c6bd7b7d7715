import type { Contact } from '@peeks/contracts';
import { lazy, Suspense, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { Dialog } from '../../ui/Dialog.tsx';
import { ServerErrors, useApiAction } from '../../ui/feedback.tsx';
import { countryName } from '../../ui/geo.ts';
import { PageLoader } from '../../ui/PageLoader.tsx';
import { QueryView } from '../../ui/QueryView.tsx';
import { session } from '../session/index.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { ContactFormDialog } from './ContactFormDialog.tsx';
import { deleteContact, useContacts } from './contacts-api.ts';
import { addLaterTexts } from '../../i18n/later-texts.ts';
import { contactsTexts } from './i18n.ts';
import { formatPhone } from '../../lib/phone.ts';

// Its own chunk: the texts come with it, not with the first load.
addLaterTexts(contactsTexts);

// Send Funds loads only when opened.
const SendFundsDialog = lazy(() =>
  import('../transfer/index.ts').then((module) => ({ default: module.SendFundsDialog })),
);

type Open =
  | { dialog: 'none' }
  | { dialog: 'send'; contact: Contact }
  | { dialog: 'choice'; contact: Contact }
  | { dialog: 'form'; contact?: Contact }
  | { dialog: 'delete'; contact: Contact }
  | { dialog: 'deleted' };

const fullName = (contact: Contact) => `${contact.name_first} ${contact.name_last}`;

/** Where Send A Money Transfer goes: the contact's user by global id and id (spec §2 /transfer-fund). */
function transferLink(contact: Contact): string {
  const query = new URLSearchParams();
  if (contact.guser_id !== null) query.set('gid', contact.guser_id);
  if (contact.user_id !== null) query.set('uid', String(contact.user_id));
  return `/transfer-fund?${query.toString()}`;
}

/**
 * /contacts (spec §2 Contacts): a grid of contact cards, the user's own
 * entry hidden; 'You have 0 Contacts' when there are none. A card opens the
 * choice dialog (Send A Money Transfer, Edit Contact, Delete Contact);
 * 'Invite A New Contact' opens the Add New Contact form.
 */
export default function ContactsPage() {
  const { t } = useTranslation();
  const titleId = useId();
  const { user } = useSnapshot(session);
  const contacts = useContacts();
  const [open, setOpen] = useState<Open>({ dialog: 'none' });
  const close = () => {
    setOpen({ dialog: 'none' });
  };
  // Saving or deleting invalidates the list, which reads itself again.
  const saved = close;

  return (
    <section className="panel" aria-labelledby={titleId}>
      <div className="panel-heading">
        <h1 id={titleId}>{t('screens.contacts')}</h1>
        <button
          type="button"
          className="button primary"
          onClick={() => {
            setOpen({ dialog: 'form' });
          }}
        >
          {t('contacts.invite')}
        </button>
        <Link to="/add-recipient" className="button">
          {t('contacts.add_recipient.title')}
        </Link>
      </div>
      <QueryView
        query={contacts}
        loading={<PageLoader label={t('contacts.loading')} />}
        failed={(texts, retry) => (
          <>
            <ServerErrors texts={texts} />
            <button type="button" className="button" onClick={retry}>
              {t('contacts.try_again')}
            </button>
          </>
        )}
      >
        {(list) => (
          <ContactGrid
            contacts={list.filter((contact) => contact.guser_id !== user?.guser_id)}
            onOpen={(contact) => {
              setOpen({ dialog: 'choice', contact });
            }}
          />
        )}
      </QueryView>
      {open.dialog === 'choice' && (
        <ChoiceDialog
          contact={open.contact}
          onEdit={() => {
            setOpen({ dialog: 'form', contact: open.contact });
          }}
          onDelete={() => {
            setOpen({ dialog: 'delete', contact: open.contact });
          }}
          onSendFunds={() => {
            setOpen({ dialog: 'send', contact: open.contact });
          }}
          onClose={close}
        />
      )}
      {open.dialog === 'send' && (
        <Suspense fallback={null}>
          <SendFundsDialog contact={open.contact} onClose={close} />
        </Suspense>
      )}
      {open.dialog === 'form' && (
        <ContactFormDialog {...(open.contact ? { contact: open.contact } : {})} onSaved={saved} onClose={close} />
      )}
      {open.dialog === 'delete' && (
        <DeleteDialog
          contact={open.contact}
          onDeleted={() => {
            setOpen({ dialog: 'deleted' });
          }}
          onClose={close}
        />
      )}
      {open.dialog === 'deleted' && (
        <Dialog
          title={t('contacts.deleted_title')}
          onClose={close}
          footer={
            <button type="button" className="button primary" onClick={close}>
              {t('contacts.ok')}
            </button>
          }
        >
          <p>{t('contacts.deleted_body')}</p>
        </Dialog>
      )}
    </section>
  );
}

function ContactGrid({ contacts, onOpen }: { contacts: readonly Contact[]; onOpen: (contact: Contact) => void }) {
  const { t, i18n } = useTranslation();
  if (contacts.length === 0) return <p className="empty-state">{t('contacts.empty')}</p>;
  return (
    <ul className="cards contact-cards" aria-label={t('contacts.list')}>
      {contacts.map((contact) => (
        // The whole card answers a click; its name is the button that keyboards and screen readers use.
        <li
          key={contact.contact_id}
          className="contact-card"
          onClick={() => {
            onOpen(contact);
          }}
        >
          <Avatar user={{ avatar: contact.avatar, username: contact.name_first }} size={48} />
          <h2>
            <button
              type="button"
              className="link-button"
              onClick={(event) => {
                event.stopPropagation();
                onOpen(contact);
              }}
            >
              {fullName(contact)}
            </button>
          </h2>
          <dl>
            <dt>{t('contacts.phone')}</dt>
            <dd>{formatPhone(contact.phone, contact.phone_region)}</dd>
            <dt>{t('contacts.email')}</dt>
            <dd>{contact.email}</dd>
            <dt>{t('contacts.address')}</dt>
            <dd>
              {contact.address1}, {contact.city}, {contact.province}, {countryName(contact.country, i18n.language)}
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}

function ChoiceDialog({
  contact,
  onEdit,
  onDelete,
  onSendFunds,
  onClose,
}: {
  contact: Contact;
  onEdit: () => void;
  onDelete: () => void;
  onSendFunds: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog title={fullName(contact)} onClose={onClose}>
      <div className="choice-buttons">
        <button type="button" className="button primary" onClick={() => void navigate(transferLink(contact))}>
          {t('contacts.send_transfer')}
        </button>
        {/* Send Funds pays only someone with an account; the transfer page explains the rest. */}
        {contact.guser_id !== null && (
          <button type="button" className="button" onClick={onSendFunds}>
            {t('contacts.send_funds')}
          </button>
        )}
        <button type="button" className="button" onClick={onEdit}>
          {t('contacts.edit')}
        </button>
        <button type="button" className="button" onClick={onDelete}>
          {t('contacts.delete')}
        </button>
      </div>
    </Dialog>
  );
}

/** 'Are you sure you want to delete?'; a refusal stays in the dialog (spec §8: forms stay open on failure). */
function DeleteDialog({
  contact,
  onDeleted,
  onClose,
}: {
  contact: Contact;
  onDeleted: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const action = useApiAction();
  const confirm = () =>
    action.run(async () => {
      await deleteContact(contact.contact_id);
      onDeleted();
    });
  return (
    <Dialog
      title={t('contacts.delete_title')}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            {t('contacts.cancel')}
          </button>
          <button type="button" className="button primary" disabled={action.busy} onClick={() => void confirm()}>
            {t('contacts.delete_confirm')}
          </button>
        </>
      }
    >
      <ServerErrors texts={action.errors} />
      <p>{t('contacts.delete_question')}</p>
    </Dialog>
  );
}
