"""Island War: the standard rules of Bloody Ridge, Saipan, Leyte and Okinawa (data in configs/island_war/)."""
