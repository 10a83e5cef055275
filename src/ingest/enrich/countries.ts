/** ISO 3166-1 alpha-2 codes with the English country name and continent used in host locations. */

export interface Country {
  readonly code: string;
  readonly name: string;
  readonly continent: string;
}

const CONTINENTS: Readonly<Record<string, string>> = {
  AF: 'Africa',
  AN: 'Antarctica',
  AS: 'Asia',
  EU: 'Europe',
  NA: 'North America',
  OC: 'Oceania',
  SA: 'South America',
};

// code|name|continent code, one country per line.
const TABLE = `AD|Andorra|EU
AE|United Arab Emirates|AS
AF|Afghanistan|AS
AG|Antigua and Barbuda|NA
AI|Anguilla|NA
AL|Albania|EU
AM|Armenia|AS
AO|Angola|AF
AQ|Antarctica|AN
AR|Argentina|SA
AS|American Samoa|OC
AT|Austria|EU
AU|Australia|OC
AW|Aruba|NA
AX|Åland Islands|EU
AZ|Azerbaijan|AS
BA|Bosnia and Herzegovina|EU
BB|Barbados|NA
BD|Bangladesh|AS
BE|Belgium|EU
BF|Burkina Faso|AF
BG|Bulgaria|EU
BH|Bahrain|AS
BI|Burundi|AF
BJ|Benin|AF
BL|Saint Barthélemy|NA
BM|Bermuda|NA
BN|Brunei|AS
BO|Bolivia|SA
BQ|Bonaire, Sint Eustatius, and Saba|NA
BR|Brazil|SA
BS|Bahamas|NA
BT|Bhutan|AS
BV|Bouvet Island|AN
BW|Botswana|AF
BY|Belarus|EU
BZ|Belize|NA
CA|Canada|NA
CC|Cocos (Keeling) Islands|AS
CD|DR Congo|AF
CF|Central African Republic|AF
CG|Congo Republic|AF
CH|Switzerland|EU
CI|Ivory Coast|AF
CK|Cook Islands|OC
CL|Chile|SA
CM|Cameroon|AF
CN|China|AS
CO|Colombia|SA
CR|Costa Rica|NA
CU|Cuba|NA
CV|Cabo Verde|AF
CW|Curaçao|NA
CX|Christmas Island|OC
CY|Cyprus|EU
CZ|Czechia|EU
DE|Germany|EU
DJ|Djibouti|AF
DK|Denmark|EU
DM|Dominica|NA
DO|Dominican Republic|NA
DZ|Algeria|AF
EC|Ecuador|SA
EE|Estonia|EU
EG|Egypt|AF
EH|Western Sahara|AF
ER|Eritrea|AF
ES|Spain|EU
ET|Ethiopia|AF
FI|Finland|EU
FJ|Fiji|OC
FK|Falkland Islands|SA
FM|Federated States of Micronesia|OC
FO|Faroe Islands|EU
FR|France|EU
GA|Gabon|AF
GB|United Kingdom|EU
GD|Grenada|NA
GE|Georgia|AS
GF|French Guiana|SA
GG|Guernsey|EU
GH|Ghana|AF
GI|Gibraltar|EU
GL|Greenland|NA
GM|Gambia|AF
GN|Guinea|AF
GP|Guadeloupe|NA
GQ|Equatorial Guinea|AF
GR|Greece|EU
GS|South Georgia and the South Sandwich Islands|AN
GT|Guatemala|NA
GU|Guam|OC
GW|Guinea-Bissau|AF
GY|Guyana|SA
HK|Hong Kong|AS
HM|Heard and McDonald Islands|AN
HN|Honduras|NA
HR|Croatia|EU
HT|Haiti|NA
HU|Hungary|EU
ID|Indonesia|AS
IE|Ireland|EU
IL|Israel|AS
IM|Isle of Man|EU
IN|India|AS
IO|British Indian Ocean Territory|AS
IQ|Iraq|AS
IR|Iran|AS
IS|Iceland|EU
IT|Italy|EU
JE|Jersey|EU
JM|Jamaica|NA
JO|Jordan|AS
JP|Japan|AS
KE|Kenya|AF
KG|Kyrgyzstan|AS
KH|Cambodia|AS
KI|Kiribati|OC
KM|Comoros|AF
KN|St Kitts and Nevis|NA
KP|North Korea|AS
KR|South Korea|AS
KW|Kuwait|AS
KY|Cayman Islands|NA
KZ|Kazakhstan|AS
LA|Laos|AS
LB|Lebanon|AS
LC|Saint Lucia|NA
LI|Liechtenstein|EU
LK|Sri Lanka|AS
LR|Liberia|AF
LS|Lesotho|AF
LT|Lithuania|EU
LU|Luxembourg|EU
LV|Latvia|EU
LY|Libya|AF
MA|Morocco|AF
MC|Monaco|EU
MD|Moldova|EU
ME|Montenegro|EU
MF|Saint Martin|NA
MG|Madagascar|AF
MH|Marshall Islands|OC
MK|North Macedonia|EU
ML|Mali|AF
MM|Myanmar|AS
MN|Mongolia|AS
MO|Macao|AS
MP|Northern Mariana Islands|OC
MQ|Martinique|NA
MR|Mauritania|AF
MS|Montserrat|NA
MT|Malta|EU
MU|Mauritius|AF
MV|Maldives|AS
MW|Malawi|AF
MX|Mexico|NA
MY|Malaysia|AS
MZ|Mozambique|AF
NA|Namibia|AF
NC|New Caledonia|OC
NE|Niger|AF
NF|Norfolk Island|OC
NG|Nigeria|AF
NI|Nicaragua|NA
NL|Netherlands|EU
NO|Norway|EU
NP|Nepal|AS
NR|Nauru|OC
NU|Niue|OC
NZ|New Zealand|OC
OM|Oman|AS
PA|Panama|NA
PE|Peru|SA
PF|French Polynesia|OC
PG|Papua New Guinea|OC
PH|Philippines|AS
PK|Pakistan|AS
PL|Poland|EU
PM|Saint Pierre and Miquelon|NA
PN|Pitcairn Islands|OC
PR|Puerto Rico|NA
PS|Palestine|AS
PT|Portugal|EU
PW|Palau|OC
PY|Paraguay|SA
QA|Qatar|AS
RE|Réunion|AF
RO|Romania|EU
RS|Serbia|EU
RU|Russia|EU
RW|Rwanda|AF
SA|Saudi Arabia|AS
SB|Solomon Islands|OC
SC|Seychelles|AF
SD|Sudan|AF
SE|Sweden|EU
SG|Singapore|AS
SH|Saint Helena|AF
SI|Slovenia|EU
SJ|Svalbard and Jan Mayen|EU
SK|Slovakia|EU
SL|Sierra Leone|AF
SM|San Marino|EU
SN|Senegal|AF
SO|Somalia|AF
SR|Suriname|SA
SS|South Sudan|AF
ST|São Tomé and Príncipe|AF
SV|El Salvador|NA
SX|Sint Maarten|NA
SY|Syria|AS
SZ|Eswatini|AF
TC|Turks and Caicos Islands|NA
TD|Chad|AF
TF|French Southern Territories|AN
TG|Togo|AF
TH|Thailand|AS
TJ|Tajikistan|AS
TK|Tokelau|OC
TL|Timor-Leste|OC
TM|Turkmenistan|AS
TN|Tunisia|AF
TO|Tonga|OC
TR|Türkiye|AS
TT|Trinidad and Tobago|NA
TV|Tuvalu|OC
TW|Taiwan|AS
TZ|Tanzania|AF
UA|Ukraine|EU
UG|Uganda|AF
UM|U.S. Outlying Islands|OC
US|United States|NA
UY|Uruguay|SA
UZ|Uzbekistan|AS
VA|Vatican City|EU
VC|St Vincent and Grenadines|NA
VE|Venezuela|SA
VG|British Virgin Islands|NA
VI|U.S. Virgin Islands|NA
VN|Vietnam|AS
VU|Vanuatu|OC
WF|Wallis and Futuna|OC
WS|Samoa|OC
XK|Kosovo|EU
YE|Yemen|AS
YT|Mayotte|AF
ZA|South Africa|AF
ZM|Zambia|AF
ZW|Zimbabwe|AF
EU|European Union|EU
AP|Asia/Pacific Region|AS`;

let byCode: Map<string, Country> | undefined;

function table(): Map<string, Country> {
  if (!byCode) {
    byCode = new Map();
    for (const line of TABLE.split('\n')) {
      const [code, name, cont] = line.split('|');
      byCode.set(code, { code, name, continent: CONTINENTS[cont] });
    }
  }
  return byCode;
}

/** The country for an alpha-2 code (case-insensitive), or undefined for an unknown code. */
export function countryByCode(code: string): Country | undefined {
  return table().get(code.toUpperCase());
}

export function allCountries(): Country[] {
  return [...table().values()];
}
