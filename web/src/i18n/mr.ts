import type { PartialTranslation } from './en.ts';

/** Marathi, started (spec §9: minimal). Missing keys fall back to English. */
export const mr: PartialTranslation = {
  app: { name: 'Peeks Wallet', loading: 'लोड होत आहे…' },
  nav: {
    my_account: 'माझे खाते',
    add_funds: 'निधी जोडा',
    log_in: 'लॉग इन',
    sign_up: 'साइन अप',
    wallet: 'वॉलेट',
    profile: 'प्रोफाइल',
    agreement: 'करार',
    webhook: 'वेबहुक',
    sign_out: 'साइन आउट',
    dashboard: 'डॅशबोर्ड',
    transactions: 'व्यवहार',
    contacts: 'संपर्क',
    payment_methods: 'पेमेंट पद्धती',
    fund_wallet: 'वॉलेटमध्ये निधी जोडा',
    edit_profile: 'प्रोफाइल संपादित करा',
    settings: 'सेटिंग्ज',
    support: 'मदत',
  },
  coming_soon: { title: '{{screen}}: लवकरच येत आहे', body: 'ही स्क्रीन अजून तयार नाही. ती पुढील आवृत्तीत येईल.', back: 'डॅशबोर्डवर परत जा' },
  login: { title: 'खाते प्रवेश', username: 'ईमेल', password: 'पासवर्ड', submit: 'माझ्या खात्यात प्रवेश करा', sign_up: 'साइन अप' },
  wallet: {
    title: 'वॉलेट',
    dashboard_title: 'डॅशबोर्ड',
    tiles: { available: 'उपलब्ध शिल्लक', hold: 'रोखलेली शिल्लक', total: 'एकूण शिल्लक', add_funds: 'निधी जोडा', withdraw: 'निधी काढा' },
    table: { balance: 'शिल्लक', available: 'उपलब्ध', coin: 'नाणे' },
    coin_breakdown: { title: 'नाण्यांचे तपशील' },
  },
  contacts: { invite: 'नवीन संपर्क आमंत्रित करा', add_title: 'नवीन संपर्क जोडा', save: 'जतन करा', close: 'बंद करा', cancel: 'रद्द करा' },
  transfer: { go_back: 'मागे जा', send: 'पैसे पाठवा', complete: 'हस्तांतरण पूर्ण करा', processing: 'प्रक्रिया सुरू आहे', completed: 'हस्तांतरण पूर्ण झाले', failed: 'हस्तांतरण अयशस्वी', close: 'बंद करा' },
  payment_methods: { title: 'पेमेंट पद्धती', add: 'पेमेंट पद्धत जोडा', credit_card: 'क्रेडिट कार्ड', bank_account: 'बँक खाते', select: 'निवडा', delete: 'हटवा', cancel: 'रद्द करा' },
  add_fund: { amount: 'रक्कम', confirm: 'जमा करण्याची पुष्टी करा', go_back: 'मागे जा', cancel: 'रद्द करा' },
  errors: { something_went_wrong: 'काहीतरी चूक झाली' },
};
