// The suit colours this device chose (the footer's switch and the settings page save
// them: site.js), applied before the first paint: a classic script in <head> of every
// page, the offline table's too, so the cards never show in the other colours first.
{
  try {
    const suits = localStorage.getItem("gin-suits");
    if (suits) document.documentElement.dataset.suits = suits;
  } catch { /* private mode: the account's choice, as the page was sent */ }
}
