import type { PageContent } from './pages.schema'

/**
 * Demo texts: our first customer's story, seeded into a new site and used for any page whose
 * stored texts are missing. Admins replace them under /admin/pages.
 */
export const demoPageContent: PageContent = {
  home: {
    hero: {
      title: 'Transforming Lives Through Compassion and Community Support',
      text: 'Since 2008 we have stood beside families in need, cancer survivors and young people with food, clothing, care and opportunity.',
    },
    programmes: {
      heading: 'Our Programmes',
      items: [
        {
          title: 'Cancer Survivor Support Community',
          text: 'A caring community for cancer survivors and their families. We meet for fellowship and encouragement, help members reach treatment and appointments, and make sure no one faces recovery alone. More than 40 survivors are part of this community today.',
        },
        {
          title: 'Youth Entrepreneurship Training',
          text: 'Practical business training for young people aged 8-17: finding an idea, pricing, selling and serving customers with confidence. More than 100 young people have taken part, and many now offer their products and services in our youth marketplace.',
        },
      ],
    },
    helpAreas: {
      heading: 'How We Help',
      text: 'Our work reaches every generation, from children and teenagers to parents, grandparents and survivors.',
      items: [
        {
          title: 'Community Support',
          text: 'Food and clothing for families in need at our monthly distribution on the last Saturday of every month.',
        },
        {
          title: 'Cancer Support',
          text: 'Fellowship, encouragement and practical help for cancer survivors and the families who care for them.',
        },
        {
          title: 'Youth Development',
          text: 'Entrepreneurship training and mentoring that help young people turn their talents into small businesses.',
        },
        {
          title: 'Family Services',
          text: 'School supplies, counselling and help in hard times, so that families can get back on their feet.',
        },
      ],
    },
    impact: {
      heading: 'Our Impact',
      text: 'Every number below is a neighbour, a survivor or a young person whose life has been touched by this ministry.',
    },
    donation: {
      heading: 'Help Us Continue Our Work',
      text: 'Your gift of food, clothing, time or money keeps the monthly distribution going and gives survivors and young people the support they need.',
    },
  },

  about: {
    hero: {
      title: 'About Us',
      text: 'A ministry serving our community with compassion since 2008.',
    },
    journey: {
      heading: 'Our Journey',
      text: [
        'Our ministry began in 2008 with a simple conviction: no family in our community should face hunger, illness or hardship alone. What started as a small group sharing food and clothing with neighbours has grown into a ministry that has served more than 200 families.',
        'When cancer touched people close to us, we saw how much survivors need a community that understands them. Our cancer survivor support community now walks alongside more than 40 survivors and their families.',
        'We also believe the surest way to change a family’s future is to invest in its children. Our youth entrepreneurship training programme teaches young people aged 8-17 to turn their skills into small businesses, and more than 100 young people have taken part.',
        'After more than 15 years of service, our work still rests on volunteers, donors and partners who give their time, goods and money so that others can thrive.',
      ].join('\n\n'),
    },
    values: {
      heading: 'Our Values',
      items: [
        {
          title: 'Compassionate Care',
          text: 'We meet every person with dignity, kindness and respect, whatever their circumstances.',
        },
        {
          title: 'Community Unity',
          text: 'We bring neighbours, churches, businesses and volunteers together, because we achieve more together than alone.',
        },
        {
          title: 'Dedicated Service',
          text: 'We show up month after month, year after year, for the families, survivors and young people who rely on us.',
        },
        {
          title: 'Excellence',
          text: 'We give our best in everything we do and use every donation carefully and accountably.',
        },
      ],
    },
    initiatives: {
      heading: 'Key Initiatives',
      items: [
        {
          title: 'Cancer Survivor Support Community',
          text: 'Regular fellowship meetings, encouragement, help reaching treatment and support for caregivers. More than 40 survivors are part of this community.',
        },
        {
          title: 'Youth Entrepreneurship Training Program',
          text: 'Business training for young people aged 8-17, from culinary arts, farming and fashion to tutoring, sports coaching and soap making. Their products and services are offered in our youth marketplace.',
        },
      ],
    },
    outreach: {
      heading: 'Community Outreach',
      text: [
        'On the last Saturday of every month our volunteers distribute food and clothing to families in need, reaching more than 12 families each month.',
        'Through the year we also reach more than 100 children with school supplies, holiday celebrations and mentoring.',
      ].join('\n\n'),
    },
    contactPersons: {
      heading: 'Contact Persons',
      text: 'Our team is happy to answer your questions about our programmes, donations and volunteering.',
      people: [
        { name: 'Ministry Director', role: 'Partnerships, donations and general enquiries' },
        { name: 'Cancer Support Coordinator', role: 'Cancer survivor support community and family assistance' },
        { name: 'Youth Programme Coordinator', role: 'Youth entrepreneurship training for ages 8-17 and the youth marketplace' },
      ],
    },
    callToAction: {
      heading: 'Join Us in Making a Difference',
      text: 'Whether you want to volunteer, donate or partner with us, we would love to hear from you.',
    },
  },

  services: {
    hero: {
      title: 'Our Services',
      text: 'Practical help for families, cancer survivors and young people, offered with compassion and free of charge.',
    },
    services: {
      heading: 'What We Offer',
      items: [
        {
          title: 'Monthly Distribution',
          text: 'Food and clothing for families in need, distributed on the last Saturday of every month.',
        },
        {
          title: 'Educational Support',
          text: 'School supplies, tutoring and youth entrepreneurship training for young people aged 8-17.',
        },
        {
          title: 'Medical Assistance',
          text: 'Support for cancer survivors and families facing illness: help reaching appointments, with medication costs and with care at home.',
        },
        {
          title: 'Housing Support',
          text: 'Help with urgent repairs and essential household items for families who have lost their belongings or whose homes have been damaged.',
        },
        {
          title: 'Community Counseling',
          text: 'A listening ear, prayer and guidance for individuals and families going through loss, illness or hardship.',
        },
        {
          title: 'Special Events',
          text: 'Holiday celebrations, fun days and fellowship gatherings that bring the whole community together.',
        },
      ],
    },
    impact: {
      heading: 'Our Impact',
      text: 'What your support has made possible since 2008.',
    },
    callToAction: {
      heading: 'Need Help or Want to Help?',
      text: 'Contact us to ask about any of our services, or support our mission so that we can reach more families.',
    },
  },

  support: {
    hero: {
      title: 'Support Our Mission',
      text: 'Every gift of goods, money or time helps us serve families, cancer survivors and young people.',
    },
    waysToHelp: {
      heading: 'Ways to Help',
      items: [
        {
          title: 'Material Donations',
          text: 'Give non-perishable food, clean clothing and shoes, school supplies and household items. Everything is shared with families at our monthly distribution.',
        },
        {
          title: 'Financial Support',
          text: 'Give online or by bank transfer. Your gift buys food, supports cancer survivors and funds training for young entrepreneurs.',
        },
        {
          title: 'Volunteering',
          text: 'Sort and hand out food and clothing, mentor young entrepreneurs or visit survivors. Send us a message and we will find the right place for you.',
        },
      ],
    },
    giveOnline: {
      heading: 'Give Online',
      text: 'Make a secure donation through our online donation page.',
    },
    bankTransfer: {
      heading: 'Bank Transfer',
      text: 'You can also give by transfer to one of our bank accounts.',
      referenceNote: 'Please use "Dues" or "Donation" as the transaction reference.',
      receiptNote: 'Please keep your receipt as a record of your gift.',
    },
    distribution: {
      heading: 'Monthly Distribution',
      text: 'Our food and clothing distribution takes place on the last Saturday of every month. Bring your donations during the week before, or join us on the day as a volunteer.',
    },
    poetryBooks: {
      heading: 'Poetry Books',
      text: 'Our poetry books are sold to support the ministry for $35.00 each. Ask us for a copy.',
    },
    contact: {
      heading: 'Questions About Giving?',
      text: 'Get in touch and we will gladly tell you more about donating goods, giving money or volunteering.',
    },
  },

  impact: {
    hero: {
      title: 'Our Impact',
      text: 'Since 2008, lives changed one family, one survivor and one young person at a time.',
    },
    intro: {
      heading: 'What Your Support Makes Possible',
      text: 'These figures are people we know by name: families who receive food and clothing every month, survivors who found a community, and young people who discovered what they can build.',
    },
    closing: {
      heading: 'Be Part of the Next Chapter',
      text: 'Every donation, every volunteer hour and every poetry book sold helps us reach more families. Thank you for standing with us.',
    },
  },

  marketplace: {
    hero: {
      title: 'Youth Marketplace',
      text: 'Products and services made by the young entrepreneurs of our programme. Every purchase supports a young person\u2019s business.',
    },
    intro: {
      heading: 'Welcome to Our Youth Marketplace',
      text: 'Our youth arm brings together young people aged five to eighteen with skills in culinary arts, farming, fashion and graphic design, makeup, jewellery and soap making, sports coaching, tutoring, transport logistics and entertainment. Here they offer what they make and do. Contact a seller through the buttons on each product.',
    },
  },
  privacy: {
    hero: {
      title: 'Privacy',
      text: 'What we keep about you, why, and how to have it removed.',
    },
    whatWeKeep: {
      heading: 'What we keep and why',
      text: 'When you write to us through the contact form we keep your name, e-mail address, phone number (if you give it) and your message, to answer you.\n\nWhen you sign up for our e-mail updates we keep your e-mail address, your first name (if you give it), the topics you chose and when you signed up, confirmed or unsubscribed, to send you what you asked for and nothing else. We send nothing but a confirmation until you follow its link. Our e-mails contain no tracking pixels, and we delete our copy of each e-mail 30 days after sending it.\n\nWhen you sign up for an event we keep your name, your e-mail address or WhatsApp number and how many people are coming, to hold your place, send you a confirmation and a reminder the day before, and tell you if a place frees up while you wait. You can see and cancel your sign-up at any time through the link we give you.\n\nOnly our administrators can see this information. It is kept in our database and its backups, never in our logs, and never shared or sold.',
    },
    yourChoices: {
      heading: 'Your choices',
      text: 'Every e-mail we send has a link to change your topics and a link to unsubscribe at once, without signing in. When you unsubscribe we keep only your address, marked as unsubscribed, so that we never add it again by mistake.\n\nWrite to us through the contact page and we delete everything we keep about you for good.',
    },
  },
}
