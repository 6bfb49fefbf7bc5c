/** The candle form's own address in the page: the hero's 'Steek een kaarsje aan' leads here. */
export const CANDLE_FORM_ANCHOR = 'kaarsje-aansteken';
/** The name field's id: the hero's link focuses it (public/boot.js, `data-focus`), the server fills it in. */
export const CANDLE_NAME_ID = 'candle-name';
/**
 * The fragment the form is sent with: no element has it, so it drops a confirmation's fragment from the address,
 * and a refused form's autofocus (which the browser skips when the fragment names an element) brings the
 * visitor back to the name field.
 */
export const CANDLE_FORM_SENT = 'kaarsjesformulier';
