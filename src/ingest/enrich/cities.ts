/**
 * Well-known cities (mostly capitals and hosting hubs) for the countries that hold most internet
 * hosts, with timezone and coordinates. The bundled geo data only knows countries, so these are
 * used to give demo hosts plausible city-level locations; they are not a geolocation source.
 */

export interface City {
  readonly countryCode: string;
  readonly city: string;
  readonly province?: string;
  readonly postalCode?: string;
  readonly timezone: string;
  readonly latitude: number;
  readonly longitude: number;
}

// country|city|province|postal code|timezone|latitude|longitude; the first city of a country is its usual one.
const TABLE = `US|Ashburn|Virginia|20147|America/New_York|39.0438|-77.4874
US|San Jose|California|95134|America/Los_Angeles|37.3382|-121.8863
US|Dallas|Texas|75201|America/Chicago|32.7767|-96.797
US|New York City|New York|10001|America/New_York|40.7128|-74.006
US|Chicago|Illinois|60601|America/Chicago|41.8781|-87.6298
US|Seattle|Washington|98101|America/Los_Angeles|47.6062|-122.3321
US|Los Angeles|California|90012|America/Los_Angeles|34.0522|-118.2437
US|Boardman|Oregon|97818|America/Los_Angeles|45.8399|-119.7006
US|Columbus|Ohio|43215|America/New_York|39.9612|-82.9988
US|Atlanta|Georgia|30303|America/New_York|33.749|-84.388
CN|Beijing|Beijing|100000|Asia/Shanghai|39.9042|116.4074
CN|Shanghai|Shanghai|200000|Asia/Shanghai|31.2304|121.4737
CN|Guangzhou|Guangdong|510000|Asia/Shanghai|23.1291|113.2644
CN|Shenzhen|Guangdong|518000|Asia/Shanghai|22.5431|114.0579
CN|Hangzhou|Zhejiang|310000|Asia/Shanghai|30.2741|120.1551
DE|Frankfurt am Main|Hesse|60311|Europe/Berlin|50.1109|8.6821
DE|Berlin|Land Berlin|10115|Europe/Berlin|52.52|13.405
DE|Nuremberg|Bavaria|90402|Europe/Berlin|49.4521|11.0767
DE|Falkenstein|Saxony|08223|Europe/Berlin|50.4779|12.3713
DE|Munich|Bavaria|80331|Europe/Berlin|48.1351|11.582
GB|London|England|EC1A|Europe/London|51.5074|-0.1278
GB|Manchester|England|M1|Europe/London|53.4808|-2.2426
FR|Paris|Île-de-France|75001|Europe/Paris|48.8566|2.3522
FR|Roubaix|Hauts-de-France|59100|Europe/Paris|50.6942|3.1746
FR|Strasbourg|Grand Est|67000|Europe/Paris|48.5734|7.7521
NL|Amsterdam|North Holland|1012|Europe/Amsterdam|52.3676|4.9041
NL|Rotterdam|South Holland|3011|Europe/Amsterdam|51.9244|4.4777
JP|Tokyo|Tokyo|100-0001|Asia/Tokyo|35.6762|139.6503
JP|Osaka|Osaka|530-0001|Asia/Tokyo|34.6937|135.5023
KR|Seoul|Seoul|04524|Asia/Seoul|37.5665|126.978
IN|Mumbai|Maharashtra|400001|Asia/Kolkata|19.076|72.8777
IN|Bengaluru|Karnataka|560001|Asia/Kolkata|12.9716|77.5946
IN|New Delhi|National Capital Territory of Delhi|110001|Asia/Kolkata|28.6139|77.209
IN|Chennai|Tamil Nadu|600001|Asia/Kolkata|13.0827|80.2707
BR|São Paulo|São Paulo|01000-000|America/Sao_Paulo|-23.5505|-46.6333
BR|Rio de Janeiro|Rio de Janeiro|20000-000|America/Sao_Paulo|-22.9068|-43.1729
RU|Moscow|Moscow|101000|Europe/Moscow|55.7558|37.6173
RU|Saint Petersburg|St.-Petersburg|190000|Europe/Moscow|59.9311|30.3609
RU|Novosibirsk|Novosibirsk Oblast|630000|Asia/Novosibirsk|55.0084|82.9357
CA|Toronto|Ontario|M5H|America/Toronto|43.6532|-79.3832
CA|Montreal|Quebec|H2Y|America/Toronto|45.5017|-73.5673
CA|Vancouver|British Columbia|V6B|America/Vancouver|49.2827|-123.1207
AU|Sydney|New South Wales|2000|Australia/Sydney|-33.8688|151.2093
AU|Melbourne|Victoria|3000|Australia/Melbourne|-37.8136|144.9631
SG|Singapore||018956|Asia/Singapore|1.3521|103.8198
HK|Hong Kong|||Asia/Hong_Kong|22.3193|114.1694
IT|Milan|Lombardy|20121|Europe/Rome|45.4642|9.19
IT|Rome|Lazio|00118|Europe/Rome|41.9028|12.4964
ES|Madrid|Madrid|28001|Europe/Madrid|40.4168|-3.7038
ES|Barcelona|Catalonia|08001|Europe/Madrid|41.3874|2.1686
PL|Warsaw|Mazovia|00-001|Europe/Warsaw|52.2297|21.0122
SE|Stockholm|Stockholm County|111 20|Europe/Stockholm|59.3293|18.0686
CH|Zurich|Zurich|8001|Europe/Zurich|47.3769|8.5417
IE|Dublin|Leinster|D01|Europe/Dublin|53.3498|-6.2603
BE|Brussels|Brussels Capital|1000|Europe/Brussels|50.8503|4.3517
AT|Vienna|Vienna|1010|Europe/Vienna|48.2082|16.3738
CZ|Prague|Prague|110 00|Europe/Prague|50.0755|14.4378
FI|Helsinki|Uusimaa|00100|Europe/Helsinki|60.1699|24.9384
NO|Oslo|Oslo|0150|Europe/Oslo|59.9139|10.7522
DK|Copenhagen|Capital Region|1050|Europe/Copenhagen|55.6761|12.5683
PT|Lisbon|Lisbon|1100-148|Europe/Lisbon|38.7223|-9.1393
RO|Bucharest|Bucharest|010011|Europe/Bucharest|44.4268|26.1025
UA|Kyiv|Kyiv City|01001|Europe/Kyiv|50.4501|30.5234
TR|Istanbul|Istanbul|34000|Europe/Istanbul|41.0082|28.9784
IR|Tehran|Tehran||Asia/Tehran|35.6892|51.389
VN|Ho Chi Minh City|Ho Chi Minh||Asia/Ho_Chi_Minh|10.8231|106.6297
TH|Bangkok|Bangkok|10200|Asia/Bangkok|13.7563|100.5018
ID|Jakarta|Jakarta||Asia/Jakarta|-6.2088|106.8456
MY|Kuala Lumpur|Kuala Lumpur|50000|Asia/Kuala_Lumpur|3.139|101.6869
PH|Manila|Metro Manila||Asia/Manila|14.5995|120.9842
TW|Taipei|Taipei|100|Asia/Taipei|25.033|121.5654
MX|Mexico City|Mexico City|06000|America/Mexico_City|19.4326|-99.1332
MX|Querétaro|Querétaro|76000|America/Mexico_City|20.5888|-100.3899
AR|Buenos Aires|Buenos Aires F.D.|C1000|America/Argentina/Buenos_Aires|-34.6037|-58.3816
CL|Santiago|Santiago Metropolitan||America/Santiago|-33.4489|-70.6693
CO|Bogotá|Bogota D.C.||America/Bogota|4.711|-74.0721
PE|Lima|Lima Province||America/Lima|-12.0464|-77.0428
ZA|Johannesburg|Gauteng|2001|Africa/Johannesburg|-26.2041|28.0473
ZA|Cape Town|Western Cape|8001|Africa/Johannesburg|-33.9249|18.4241
EG|Cairo|Cairo Governorate||Africa/Cairo|30.0444|31.2357
NG|Lagos|Lagos||Africa/Lagos|6.5244|3.3792
KE|Nairobi|Nairobi County||Africa/Nairobi|-1.2921|36.8219
MA|Casablanca|Casablanca-Settat||Africa/Casablanca|33.5731|-7.5898
IL|Tel Aviv|Tel Aviv||Asia/Jerusalem|32.0853|34.7818
AE|Dubai|Dubai||Asia/Dubai|25.2048|55.2708
SA|Riyadh|Riyadh Region||Asia/Riyadh|24.7136|46.6753
PK|Karachi|Sindh||Asia/Karachi|24.8607|67.0011
BD|Dhaka|Dhaka Division||Asia/Dhaka|23.8103|90.4125
NZ|Auckland|Auckland|1010|Pacific/Auckland|-36.8485|174.7633
GR|Athens|Attica|105 57|Europe/Athens|37.9838|23.7275
HU|Budapest|Budapest|1051|Europe/Budapest|47.4979|19.0402
BG|Sofia|Sofia-Capital|1000|Europe/Sofia|42.6977|23.3219
LT|Vilnius|Vilnius|01001|Europe/Vilnius|54.6872|25.2797
LV|Riga|Riga|LV-1050|Europe/Riga|56.9496|24.1052
EE|Tallinn|Harju|10111|Europe/Tallinn|59.437|24.7536
SK|Bratislava|Bratislava Region|811 01|Europe/Bratislava|48.1486|17.1077
RS|Belgrade|Belgrade|11000|Europe/Belgrade|44.7866|20.4489
HR|Zagreb|City of Zagreb|10000|Europe/Zagreb|45.815|15.9819
SI|Ljubljana|Ljubljana|1000|Europe/Ljubljana|46.0569|14.5058
LU|Luxembourg|Luxembourg|1009|Europe/Luxembourg|49.6116|6.1319
IS|Reykjavik|Capital Region|101|Atlantic/Reykjavik|64.1466|-21.9426
MD|Chişinău|Chișinău Municipality|2001|Europe/Chisinau|47.0105|28.8638
BY|Minsk|Minsk City|220030|Europe/Minsk|53.9006|27.559
KZ|Almaty|Almaty|050000|Asia/Almaty|43.222|76.8512
VE|Caracas|Capital District||America/Caracas|10.4806|-66.9036
EC|Quito|Pichincha||America/Guayaquil|-0.1807|-78.4678
UY|Montevideo|Montevideo|11000|America/Montevideo|-34.9011|-56.1645
CR|San José|San José||America/Costa_Rica|9.9281|-84.0907
PA|Panama City|Panamá||America/Panama|8.9824|-79.5199
DO|Santo Domingo|Nacional||America/Santo_Domingo|18.4861|-69.9312
PR|San Juan|San Juan|00901|America/Puerto_Rico|18.4655|-66.1057
SC|Victoria|English River||Indian/Mahe|-4.6191|55.4513
CY|Nicosia|Nicosia||Asia/Nicosia|35.1856|33.3823
MT|Valletta|Valletta||Europe/Malta|35.8989|14.5146
GE|Tbilisi|Tbilisi||Asia/Tbilisi|41.7151|44.8271
AM|Yerevan|Yerevan||Asia/Yerevan|40.1792|44.4991
LK|Colombo|Western Province||Asia/Colombo|6.9271|79.8612
NP|Kathmandu|Bagmati Province||Asia/Kathmandu|27.7172|85.324
MN|Ulaanbaatar|Ulaanbaatar||Asia/Ulaanbaatar|47.8864|106.9057
KH|Phnom Penh|Phnom Penh||Asia/Phnom_Penh|11.5564|104.9282
MM|Yangon|Yangon Region||Asia/Yangon|16.8409|96.1735
DZ|Algiers|Algiers||Africa/Algiers|36.7538|3.0588
TN|Tunis|Tunis Governorate||Africa/Tunis|36.8065|10.1815
GH|Accra|Greater Accra Region||Africa/Accra|5.6037|-0.187
TZ|Dar es Salaam|Dar es Salaam Region||Africa/Dar_es_Salaam|-6.7924|39.2083`;

let byCountry: Map<string, City[]> | undefined;

function table(): Map<string, City[]> {
  if (!byCountry) {
    byCountry = new Map();
    for (const line of TABLE.split('\n')) {
      const [countryCode, city, province, postalCode, timezone, lat, lon] = line.split('|');
      const entry: City = {
        countryCode,
        city,
        ...(province ? { province } : {}),
        ...(postalCode ? { postalCode } : {}),
        timezone,
        latitude: Number(lat),
        longitude: Number(lon),
      };
      const list = byCountry.get(countryCode);
      if (list) list.push(entry);
      else byCountry.set(countryCode, [entry]);
    }
  }
  return byCountry;
}

/** The cities known for a country (first = the usual one), empty when the country is not covered. */
export function citiesOf(countryCode: string): readonly City[] {
  return table().get(countryCode.toUpperCase()) ?? [];
}

/** Number of countries with at least one city. */
export function coveredCountryCount(): number {
  return table().size;
}
